package org.jpbs.core.pxar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.jpbs.core.api.BackupType;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;
import org.junit.jupiter.api.Test;

/** PBS's resolution of a file archive's name to a unified or split archive. */
class ArchiveNamesTest {
    private static BackupManifest manifest(String... files) {
        BackupManifest m = new BackupManifest(BackupType.HOST, "h", 1_700_000_000L);
        for (String f : files) {
            m.addFile(new FileEntry(f, CryptMode.NONE, 1, Digest.of(new byte[32])));
        }
        return m;
    }

    @Test
    void unifiedSplitAndFallback() {
        BackupManifest unified = manifest("root.pxar.didx", "catalog.pcat1.didx");
        assertEquals(new ArchiveNames("root.pxar.didx", null), ArchiveNames.resolve("root.pxar.didx", unified));
        BackupManifest split = manifest("root.mpxar.didx", "root.ppxar.didx");
        ArchiveNames both = new ArchiveNames("root.mpxar.didx", "root.ppxar.didx");
        assertEquals(both, ArchiveNames.resolve("root.pxar.didx", split));
        assertEquals(both, ArchiveNames.resolve("root.mpxar.didx", split));
        assertEquals(both, ArchiveNames.resolve("root.ppxar.didx", split));
        assertThrows(IllegalArgumentException.class, () -> ArchiveNames.resolve("disk.img.fidx", unified));
    }
}
