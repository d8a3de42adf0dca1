package org.jpbs.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.SnapshotWriter;

/**
 * Test helper run in a second JVM by {@link CrossProcessLockTest}: starts a backup of
 * {@code vm/<id>} at {@code <time>} in the datastore {@code <repo>} (group lock, base snapshot
 * lock), writes a complete blob and a partial temp file into its hidden directory, prints
 * {@code HOLDING <dir>} and waits for standard input to end (the test usually kills it first,
 * like a server killed mid-upload).
 */
public final class GroupLockHolder {
    private GroupLockHolder() {}

    /** Arguments: repository path, backup id, backup time (epoch seconds). */
    public static void main(String[] args) throws Exception {
        Datastore ds = Datastore.open(Path.of(args[0]));
        BackupGroupRef g = new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, args[1]);
        BackupSnapshotRef ref = new BackupSnapshotRef(g, Long.parseLong(args[2]));
        try (SnapshotWriter w = ds.beginSnapshot(ref, "root@pam")) {
            var last = ds.lastFinishedSnapshot(g);
            if (last.isPresent()) {
                w.lockBase(last.get());
            }
            byte[] conf = "memory: 1\n".getBytes(StandardCharsets.UTF_8);
            w.addBlob("qemu-server.conf.blob", DataBlob.encode(conf, 0, conf.length, true));
            Files.writeString(w.dir().resolve("drive-scsi0.img.fidx.tmp_abcdef"), "partial");
            System.out.println("HOLDING " + w.dir());
            System.out.flush();
            while (System.in.read() >= 0) {
                // wait for the end of input
            }
        }
    }
}
