package org.jpbs.cli;

import static org.jpbs.cli.CliEndToEndTest.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.digest.Digest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The main job on a real file system: a 64 MiB ext4 image made by {@code mkfs.ext4 -d} from
 * seeded files is backed up and restored byte-identical; then a few files are changed inside
 * the image ({@code debugfs -w}, or a deterministic rewrite of a block range if debugfs is
 * absent), and the second backup stores only a few new chunks. Skips when {@code mkfs.ext4} is
 * not installed.
 */
class Ext4ImageBackupTest {
    static final int MIB = 1024 * 1024;
    static final long T1 = 1_700_000_000L;
    static final long T2 = T1 + 86_400;

    @TempDir(factory = FastTempDirs.class)
    Path tmp;

    @AfterEach
    void deleteDatastore() throws IOException {
        FastTempDirs.deleteTree(tmp.resolve("ds"));
    }

    static Optional<Path> tool(String name) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        return dirs.stream().filter(d -> !d.isEmpty()).map(d -> Path.of(d, name)).filter(Files::isExecutable).findFirst();
    }

    static String exec(List<String> cmd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("E2FSPROGS_FAKE_TIME", Long.toString(T1));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "timed out: " + cmd);
        assertEquals(0, p.exitValue(), cmd + " failed: " + out);
        return out;
    }

    /** About 36 MiB of seeded files: text of different sizes and binary files, in four directories. */
    static void seedFiles(Path dir) throws IOException {
        Random r = new Random(7);
        String[] words = {"backup", "restore", "chunk", "ext4", "inode", "extent", "journal", "proxmox", "java", "\n"};
        for (int d = 0; d < 4; d++) {
            Path sub = Files.createDirectories(dir.resolve("dir" + d));
            for (int f = 0; f < 10; f++) {
                StringBuilder sb = new StringBuilder();
                int size = 1000 + r.nextInt(200_000);
                while (sb.length() < size) {
                    sb.append(words[r.nextInt(words.length)]).append(' ');
                }
                Files.writeString(sub.resolve("file" + f + ".txt"), sb);
            }
            for (int b = 0; b < 4; b++) {
                byte[] bin = new byte[2 * MIB];
                r.nextBytes(bin);
                Files.write(sub.resolve("blob" + b + ".bin"), bin);
            }
        }
    }

    @Test
    void ext4ImageRoundTripAndIncremental() throws Exception {
        Optional<Path> mkfs = tool("mkfs.ext4");
        Assumptions.assumeTrue(mkfs.isPresent(), "mkfs.ext4 not found (install e2fsprogs): skipping the ext4 image test");
        Path src = Files.createDirectories(tmp.resolve("src"));
        seedFiles(src);
        Path img = tmp.resolve("ext4.img");
        try (RandomAccessFile raf = new RandomAccessFile(img.toFile(), "rw")) {
            raf.setLength(64L * MIB);
        }
        exec(List.of(mkfs.get().toString(), "-q", "-F", "-b", "4096", "-U", "6b0ab0e5-0000-4000-8000-00000000a1b2",
                "-E", "hash_seed=6b0ab0e5-0000-4000-8000-00000000a1b3,root_owner=0:0", "-d", src.toString(), img.toString()));

        Path repo = tmp.resolve("ds");
        CliRunner cli = new CliRunner(tmp.resolve("home"), Map.of());
        CliRunner.Result b1 = cli.run("backup", "--repository", repo.toString(), "--backup-type", "vm", "--backup-id",
                "100", "--backup-time", Long.toString(T1), "drive-scsi0.img:" + img);
        assertEquals(0, b1.exit(), b1.all());
        assertEquals(16, count(b1.err(), "in (\\d+) chunks"), b1.err());
        assertTrue(count(b1.err(), "zero\\s+(\\d+) chunk") > 0, "a mostly empty file system has zero chunks: " + b1.err());
        Path restored = tmp.resolve("restored.img");
        CliRunner.Result r1 = cli.run("restore", "-q", "--sparse", "--repository", repo.toString(),
                "vm/100/" + BackupSnapshotRef.formatTime(T1), "drive-scsi0.img", restored.toString());
        assertEquals(0, r1.exit(), r1.all());
        assertEquals(sha256(img), sha256(restored));
        Optional<Path> fsck = tool("e2fsck");
        if (fsck.isPresent()) {
            exec(List.of(fsck.get().toString(), "-f", "-n", restored.toString()));
        }

        changeFiles(img);
        CliRunner.Result b2 = cli.run("backup", "--repository", repo.toString(), "--backup-type", "vm", "--backup-id",
                "100", "--backup-time", Long.toString(T2), "drive-scsi0.img:" + img);
        assertEquals(0, b2.exit(), b2.all());
        int fresh = count(b2.err(), "new\\s+(\\d+) chunk");
        int reused = count(b2.err(), "reused\\s+(\\d+) chunk");
        assertTrue(fresh >= 1 && fresh <= 6, "only a few new chunks: " + b2.err());
        assertTrue(reused >= 4, "unchanged chunks reused: " + b2.err());
        CliRunner.Result r2 = cli.run("restore", "-q", "--repository", repo.toString(), "vm/100", "drive-scsi0.img",
                restored.toString());
        assertEquals(0, r2.exit(), r2.all());
        assertEquals(sha256(img), sha256(restored));
    }

    /** Rewrites one file and adds three with debugfs; without debugfs, rewrites 12 KiB at 40 MiB. */
    private void changeFiles(Path img) throws Exception {
        Random r = new Random(99);
        Optional<Path> debugfs = tool("debugfs");
        if (debugfs.isEmpty()) {
            byte[] junk = new byte[12 * 1024];
            r.nextBytes(junk);
            try (RandomAccessFile raf = new RandomAccessFile(img.toFile(), "rw")) {
                raf.seek(40L * MIB);
                raf.write(junk);
            }
            return;
        }
        StringBuilder cmds = new StringBuilder("rm /dir1/file3.txt\n");
        for (int i = 0; i < 4; i++) {
            Path f = tmp.resolve("changed" + i + ".bin");
            byte[] data = new byte[64 * 1024];
            r.nextBytes(data);
            Files.write(f, data);
            cmds.append("write ").append(f).append(i == 0 ? " /dir1/file3.txt\n" : " /changed" + i + ".bin\n");
        }
        Path script = tmp.resolve("debugfs.cmd");
        Files.writeString(script, cmds);
        String out = exec(List.of(debugfs.get().toString(), "-w", "-f", script.toString(), img.toString()));
        assertTrue(!out.contains("Could not") && !out.contains("not found"), out);
    }

    private static Digest sha256(Path p) throws IOException {
        return Digest.sha256(Files.readAllBytes(p));
    }
}
