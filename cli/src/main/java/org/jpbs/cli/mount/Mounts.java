package org.jpbs.cli.mount;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The checks around a mount: the mount point must be an empty directory, {@code /dev/fuse}
 * must exist; whether a path is a FUSE mount point ({@code /proc/self/mounts}); and unmounting
 * with {@code fusermount3 -u} (or {@code umount} as root when fusermount3 is missing).
 */
public final class Mounts {
    static final Path DEV_FUSE = Path.of("/dev/fuse");
    private static final Path PROC_MOUNTS = Path.of("/proc/self/mounts");

    private Mounts() {}

    /**
     * The mount point as an absolute real path, checked: an existing, empty directory.
     *
     * @throws MountException naming the path and what is wrong
     */
    public static Path checkMountpoint(Path mountpoint) throws IOException {
        if (!Files.exists(mountpoint)) {
            throw new MountException("mount point " + mountpoint + ": no such directory", true);
        }
        if (!Files.isDirectory(mountpoint)) {
            throw new MountException("mount point " + mountpoint + ": not a directory", true);
        }
        Path real = mountpoint.toRealPath();
        if (isMounted(real)) {
            throw new MountException("mount point " + mountpoint + ": already a FUSE mount (jpbs unmount " + mountpoint + ")", true);
        }
        try (DirectoryStream<Path> d = Files.newDirectoryStream(real)) {
            if (d.iterator().hasNext()) {
                throw new MountException("mount point " + mountpoint + ": not empty", true);
            }
        }
        return real;
    }

    /** @throws MountException if there is no {@code /dev/fuse} */
    public static void checkFuseDevice() throws MountException {
        if (!Files.exists(DEV_FUSE)) {
            throw new MountException("no /dev/fuse: load the fuse kernel module (modprobe fuse), or give the container the device", false);
        }
    }

    /** Where Debian, Fedora and others put the shared library. */
    private static final List<String> LIB_DIRS = List.of("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
            "/usr/lib64", "/lib64", "/usr/lib", "/lib", "/usr/local/lib");

    /**
     * The path of libfuse3's shared library ({@code libfuse3.so.3}; the unversioned name exists
     * only with the development package).
     *
     * @throws MountException if it is not installed
     */
    public static Path libfuse3() throws MountException {
        for (String dir : LIB_DIRS) {
            for (String name : List.of("libfuse3.so.3", "libfuse3.so")) {
                Path p = Path.of(dir, name);
                if (Files.exists(p)) {
                    return p;
                }
            }
        }
        throw new MountException("libfuse3 is not installed (Debian: apt-get install fuse3 libfuse3-3)", false);
    }

    /** True if {@code realPath} is the mount point of a FUSE file system in this mount namespace. */
    public static boolean isMounted(Path realPath) throws IOException {
        String want = realPath.toString();
        for (String line : Files.readAllLines(PROC_MOUNTS, StandardCharsets.UTF_8)) {
            String[] f = line.split(" ");
            if (f.length >= 3 && f[2].startsWith("fuse") && unescape(f[1]).equals(want)) {
                return true;
            }
        }
        return false;
    }

    /** The kernel writes space, tab, newline and backslash in mount paths as octal escapes. */
    static String unescape(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 3 < s.length() && s.substring(i + 1, i + 4).chars().allMatch(x -> x >= '0' && x <= '7')) {
                out.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * Unmounts the FUSE file system at {@code mountpoint} and waits (up to 10 s) until it is gone.
     *
     * @throws MountException if it is not a FUSE mount point, or the unmount fails (with the tool's message)
     */
    public static void unmount(Path mountpoint) throws IOException {
        if (!Files.isDirectory(mountpoint)) {
            throw new MountException("mount point " + mountpoint + ": no such directory", true);
        }
        Path real = mountpoint.toRealPath();
        if (!isMounted(real)) {
            throw new MountException("mount point " + mountpoint + ": not a FUSE mount", true);
        }
        List<String> cmd = List.of("fusermount3", "-u", "--", real.toString());
        Process p;
        try {
            p = start(cmd);
        } catch (IOException e) { // no fusermount3 (libfuse3 without the fuse3 tools): root may umount
            cmd = List.of("umount", real.toString());
            p = start(cmd);
        }
        String out;
        try {
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new MountException(cmd.get(0) + " did not finish within 30 s", false);
            }
            if (p.exitValue() != 0) {
                String first = out.lines().findFirst().orElse("exit code " + p.exitValue());
                throw new MountException("cannot unmount " + mountpoint + ": " + first, false);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (isMounted(real) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while unmounting " + mountpoint);
        }
        if (isMounted(real)) {
            throw new MountException("cannot unmount " + mountpoint + ": still mounted after 10 s", false);
        }
    }

    private static Process start(List<String> cmd) throws IOException {
        return new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
    }
}
