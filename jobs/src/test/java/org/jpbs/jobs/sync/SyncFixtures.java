package org.jpbs.jobs.sync;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jpbs.client.engine.BackupCrypt;
import org.jpbs.client.engine.BackupEngine;
import org.jpbs.client.progress.ProgressListener;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.LocalSnapshotTarget;
import org.jpbs.datastore.task.TaskLog;

/** Test helpers: seeded images backed up into a local datastore with the backup engine, and a task log in memory. */
final class SyncFixtures {
    static final int MIB = 1 << 20;

    private SyncFixtures() {}

    /** A seeded image file of {@code mib} MiB + 1000 bytes; {@code changed} MiB at the start differ per seed2. */
    static Path image(Path dir, long seed, int mib, long seed2, int changed) throws IOException {
        byte[] b = new byte[mib * MIB + 1000];
        new Random(seed).nextBytes(b);
        if (changed > 0) {
            byte[] c = new byte[changed * MIB];
            new Random(seed2).nextBytes(c);
            System.arraycopy(c, 0, b, 0, c.length);
        }
        Path p = Files.createTempFile(dir, "img", ".raw");
        Files.write(p, b);
        return p;
    }

    /** Backs up {@code image} as {@code disk.img.fidx} plus a config blob into snapshot {@code ref}. */
    static void backup(Datastore ds, BackupSnapshotRef ref, Path image, CryptConfig key) throws IOException {
        try (LocalSnapshotTarget t = LocalSnapshotTarget.begin(ds, ref, "root@pam", true);
             FileChannel in = FileChannel.open(image, StandardOpenOption.READ)) {
            BackupEngine e = new BackupEngine(t, key == null ? BackupCrypt.NONE : BackupCrypt.encrypt(key), w -> { })
                    .workers(2);
            e.backupBlob("qemu-server.conf.blob", ("memory: 512\nname: " + ref + "\n").getBytes());
            e.backupImage("disk.img.fidx", in, in.size(), image.toString(), ProgressListener.NONE);
            e.finish();
        }
    }

    static CryptConfig key(long seed) {
        byte[] k = new byte[32];
        new Random(seed).nextBytes(k);
        return CryptConfig.of(k);
    }

    /** A task log kept in memory. */
    static final class MemLog implements TaskLog {
        final List<String> lines = new ArrayList<>();
        int warnings;

        @Override
        public synchronized void log(String message) {
            lines.add(message);
        }

        @Override
        public synchronized void warn(String message) {
            warnings++;
            lines.add("WARN: " + message);
        }

        @Override
        public boolean abortRequested() {
            return false;
        }

        synchronized String text() {
            return String.join("\n", lines);
        }
    }
}
