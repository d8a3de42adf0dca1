package org.jpbs.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.datastore.snapshot.Datastore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 8 over the backup protocol: a group that a killed first backup left with only
 * its {@code owner} file (and the writer's hidden temp directory) is taken over by the next
 * backup of the id, whoever runs it; a group with a snapshot keeps its owner check.
 */
class AbandonedGroupTest {
    private static final long T = 1_700_000_000L;

    @TempDir
    Path tmp;

    @Test
    void nextBackupOfAnotherUserTakesOverAGroupWithoutSnapshots() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1")) {
            Datastore ds = s.ds("store1");
            BackupGroupRef g = new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "555");
            // what a first backup killed after it began leaves behind
            Path dir = ds.groupDir(g);
            Files.createDirectories(dir.resolve(".tmp-2023-11-14T22:13:20Z-deadbeef"));
            Files.writeString(dir.resolve("owner"), TestServer.TOKEN_ID + "\n", StandardCharsets.UTF_8);

            try (PbsTestClient c = PbsTestClient.connect(s.port(), s.server.fingerprint(), PbsTestClient.BACKUP)) {
                c.upgradeOrFail("/api2/json/backup", Backups.backupQuery("store1", "555", T), TestServer.OTHER_TOKEN);
                Backups.imageBackup(c, "555", T, Backups.image(5, 1, 10));
            }
            s.awaitIdle();
            assertEquals(TestServer.OTHER_TOKEN_ID, ds.owner(g));
            assertEquals(java.util.List.of(new BackupSnapshotRef(g, T)),
                    ds.listSnapshots(g).stream().map(i -> i.ref()).toList());
            // now it has a snapshot: the original owner is refused as usual
            HttpLayerTest.assertRefused(s, Backups.backupQuery("store1", "555", T + 1),
                    java.util.Map.of("Authorization", "PBSAPIToken " + TestServer.TOKEN), 400,
                    "backup owner check failed (" + TestServer.TOKEN_ID + " != " + TestServer.OTHER_TOKEN_ID + ")");
        }
    }
}
