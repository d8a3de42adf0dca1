package org.jpbs.client.pxar.fs;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.api.Assumptions;

/**
 * Rebuilds the real-pxar source trees from their pax tars (GNU tar with xattrs and ACLs, as
 * root) plus what tar cannot keep (t2-special's socket and chattr flags, as build_trees.sh
 * makes them), on a disk file system with xattrs, ACLs and chattr (the test tmpdir is tmpfs,
 * which has none of them, so the trees go below the module's build directory).
 */
final class VectorTrees {
    static final List<String> TREES = List.of("t1-basic", "t2-special", "t3-xattr-acl", "t4-names");
    private static final long T = 1700000000L;

    private VectorTrees() {}

    /**
     * A fresh empty directory on a disk file system; skips the test unless running as root
     * on ext4, xfs or btrfs.
     */
    static Path diskDirectory() throws IOException {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs root (owners, devices, fcaps)");
        Path base = Files.createDirectories(Path.of("target", "pxar-trees"));
        Path dir = Files.createTempDirectory(base.toAbsolutePath(), "trees");
        String fs = Files.getFileStore(dir).type();
        Assumptions.assumeTrue(List.of("ext4", "xfs", "btrfs").contains(fs), "needs ext4/xfs/btrfs, have " + fs);
        return dir;
    }

    /** Extracts a pax tar with owners, xattrs and ACLs into {@code dir}. */
    static void untar(Path tar, Path dir) throws IOException, InterruptedException {
        run(dir, "tar", "--numeric-owner", "--xattrs", "--xattrs-include=*", "--acls", "-xpf",
                tar.toAbsolutePath().toString());
    }

    /** A fresh directory holding the four trees; skips the test unless root on a suitable file system. */
    static Path build() throws Exception {
        Path vectors = SharedVectors.require("vectors/real-pxar");
        Path dir = diskDirectory();
        for (String t : TREES) {
            untar(vectors.resolve(t + ".tar"), dir);
        }
        Path t2 = dir.resolve("t2-special");
        Path sock = t2.resolve("sock");
        try (ServerSocketChannel ch = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.bind(UnixDomainSocketAddress.of(sock));
        }
        Files.setPosixFilePermissions(sock, PosixFilePermissions.fromString("rwxr-xr-x"));
        run(t2, "chattr", "+A", "attr_noatime");
        run(t2, "chattr", "+d", "attr_nodump");
        FileTime ft = FileTime.from(T, TimeUnit.SECONDS);
        Files.setLastModifiedTime(sock, ft);
        Files.setLastModifiedTime(t2, ft);
        return dir;
    }

    static void run(Path cwd, String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true).start();
        p.getOutputStream().close(); // the pipes are closed here, not later by the process reaper:
        String out;                  // tests count this process's open descriptors
        try (java.io.InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes());
        }
        if (p.waitFor() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed: " + out);
        }
    }

    /** Removes a tree (chattr flags first, which may block removal). */
    static void delete(Path dir) throws IOException, InterruptedException {
        if (dir != null) {
            new ProcessBuilder("chattr", "-R", "-a", "-i", dir.toString()).redirectErrorStream(true).start().waitFor();
            new ProcessBuilder("rm", "-rf", dir.toString()).start().waitFor();
        }
    }
}
