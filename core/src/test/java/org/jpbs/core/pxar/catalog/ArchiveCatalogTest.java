package org.jpbs.core.pxar.catalog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.jpbs.core.pxar.PxarFormatException;
import org.jpbs.core.testing.SampleTree;
import org.junit.jupiter.api.Test;

/**
 * A catalog made from an archive's own entries ({@code docs/pxar.md#catalog-of-split-archives})
 * is the catalog the backup wrote next to it: files with size and mtime, directories, a
 * hardlink, a symlink and a fifo, in archive order. A truncated archive is refused.
 */
class ArchiveCatalogTest {
    @Test
    void theCatalogOfAnArchiveIsTheOneWrittenWithIt() throws Exception {
        SampleTree tree = new SampleTree(3, 50);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CatalogWriter w = new CatalogWriter(out);
        ArchiveCatalog.add(w, "root.pxar.didx".getBytes(StandardCharsets.UTF_8), new ByteArrayInputStream(tree.archive));
        w.finish();
        assertArrayEquals(tree.catalog, out.toByteArray());
    }

    @Test
    void aTruncatedArchiveIsRefused() throws Exception {
        SampleTree tree = new SampleTree(3, 50);
        byte[] cut = Arrays.copyOf(tree.archive, tree.archive.length - 100);
        CatalogWriter w = new CatalogWriter(new ByteArrayOutputStream());
        assertThrows(java.io.IOException.class, () -> ArchiveCatalog.add(w, new byte[] {'r'},
                new ByteArrayInputStream(cut)));
        assertThrows(PxarFormatException.class, () -> ArchiveCatalog.add(new CatalogWriter(new ByteArrayOutputStream()),
                new byte[] {'r'}, new ByteArrayInputStream(new byte[64])));
    }
}
