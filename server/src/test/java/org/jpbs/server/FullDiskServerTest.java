package org.jpbs.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jpbs.core.blob.EncodedChunk;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 9 through the backup protocol, on a datastore that is a real full file system
 * (a 12 MiB tmpfs): a chunk upload and a backup start that cannot write answer 500 (not 400)
 * naming the datastore and the file relative to it, never a server path.
 */
class FullDiskServerTest {
    private static final long T = 1_700_000_000L;

    @TempDir
    Path tmp;

    @Test
    void writesOntoAFullDatastoreAnswer500NamingDatastoreAndFile() throws Exception {
        Optional<SmallTmpfs> mounted = SmallTmpfs.mount(tmp.resolve("ds-store1"), "12m");
        Assumptions.assumeTrue(mounted.isPresent(), "cannot mount a tmpfs here (needs root): skipping the full-disk test");
        try (SmallTmpfs fs = mounted.get(); TestServer s = TestServer.start(tmp, "store1")) {
            byte[] img = Backups.random(5, 3 * 1024 * 1024);
            List<EncodedChunk> chunks = Backups.fixedChunks(img);
            try (PbsTestClient c = s.backup(Backups.backupQuery("store1", "300", T))) {
                PbsTestClient.Resp r = c.call("POST", "/fixed_index?archive-name=disk.img.fidx&size=" + img.length);
                int wid = r.data().asInt();
                fs.fill("filler");
                EncodedChunk ch = chunks.get(0);
                r = c.call("POST", Backups.chunkQuery("fixed", wid, ch), "application/octet-stream", ch.blob().raw());
                assertEquals(500, r.status(), r.toString());
                assertEquals("datastore 'store1': no space left on device writing .chunks/" + ch.digest().prefix() + "/"
                        + ch.digest().hex(), r.text());
                assertFalse(r.text().contains(tmp.toString()), r.text());
            }
            s.awaitIdle();
            fs.fill("filler2"); // the aborted backup freed its pages
            // a new group cannot even get its owner file
            PbsTestClient c = PbsTestClient.connect(s.port(), s.server.fingerprint(), PbsTestClient.BACKUP);
            try (c) {
                PbsTestClient.Resp r = c.upgrade("/api2/json/backup?" + Backups.backupQuery("store1", "301", T),
                        Map.of("Authorization", "PBSAPIToken " + TestServer.TOKEN,
                                "Content-Type", "application/x-www-form-urlencoded"));
                assertNotNull(r, "upgrade must be refused");
                assertEquals(500, r.status(), r.toString());
                assertEquals("datastore 'store1': no space left on device writing vm/301/owner", r.text());
            }
            assertTrue(s.ds("store1").listSnapshots(new org.jpbs.core.api.BackupGroupRef(
                    org.jpbs.core.api.BackupNamespace.ROOT, org.jpbs.core.api.BackupType.VM, "300")).isEmpty());
        }
    }
}
