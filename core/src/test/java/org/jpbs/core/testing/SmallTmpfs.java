package org.jpbs.core.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real small file system for full-disk tests: a tmpfs of a given size mounted on a fresh
 * directory ({@code mount -t tmpfs -o size=…}, needs root; CI runs as root). {@link #mount}
 * answers empty when mounting is not permitted, so the test can skip with a message.
 * {@link #fill} writes a filler file until the file system answers ENOSPC.
 */
public final class SmallTmpfs implements AutoCloseable {
    private final Path dir;

    private SmallTmpfs(Path dir) {
        this.dir = dir;
    }

    /** Mounts a tmpfs of {@code size} (e.g. {@code "8m"}) on {@code dir} (created); empty if that is not permitted. */
    public static Optional<SmallTmpfs> mount(Path dir, String size) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size + ",mode=0755", "tmpfs", dir.toString())
                .redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            return Optional.empty();
        }
        return Optional.of(new SmallTmpfs(dir));
    }

    public Path dir() {
        return dir;
    }

    /** Writes {@code dir/name} until the file system is full; returns the bytes written. */
    public long fill(String name) throws IOException {
        byte[] buf = new byte[4096];
        java.util.Arrays.fill(buf, (byte) 0x5a);
        long n = 0;
        try (OutputStream out = Files.newOutputStream(dir.resolve(name))) {
            while (true) {
                out.write(buf);
                n += buf.length;
            }
        } catch (IOException e) {
            if (e.getMessage() == null || !e.getMessage().contains("No space left on device")) {
                throw e;
            }
        }
        return n;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("umount", "-l", dir.toString()).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        p.waitFor(30, TimeUnit.SECONDS);
    }
}
