package org.jpbs.cli.local;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;

/**
 * Where a restore writes, chosen from the TARGET argument:
 * <ul>
 * <li>{@code -} or {@code /dev/stdout}: the process's standard output, written in order;</li>
 * <li>a block device: written in place with positional writes (it must be at least as large as
 *     the data; its size is not changed);</li>
 * <li>another existing non-regular file (a character device such as {@code /dev/null}, a FIFO):
 *     opened and written in order;</li>
 * <li>anything else is a regular file: the data goes to {@code TARGET.tmp-XXXXXX} in the same
 *     directory, extended to the final size first (so skipped zero chunks are holes), and is
 *     renamed over TARGET only by {@link #commit()} — nothing half-written ever has the target
 *     name. {@link #close()} without commit (or the JVM exiting, e.g. on Ctrl-C) removes the
 *     temporary file. An existing regular file is replaced.</li>
 * </ul>
 */
public final class RestoreTarget implements AutoCloseable {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String name;
    private final Path target;
    private final Path tmp;
    private final FileChannel channel;
    private final OutputStream stream;
    private final boolean ownsStream;
    private final Thread cleanupHook;
    private boolean committed;

    private RestoreTarget(String name, Path target, Path tmp, FileChannel channel, OutputStream stream,
            boolean ownsStream) {
        this.name = name;
        this.target = target;
        this.tmp = tmp;
        this.channel = channel;
        this.stream = stream;
        this.ownsStream = ownsStream;
        // Ctrl-C during a restore must not leave TARGET.tmp-XXXXXX behind
        this.cleanupHook = tmp == null ? null : Thread.ofPlatform().unstarted(() -> {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException e) {
                // exiting anyway
            }
        });
        if (cleanupHook != null) {
            Runtime.getRuntime().addShutdownHook(cleanupHook);
        }
    }

    /**
     * Opens the target for {@code size} bytes of data.
     *
     * @param spec   the TARGET argument
     * @param size   number of bytes that will be written
     * @param stdout the process's standard output (for {@code -})
     * @throws IllegalArgumentException naming TARGET if it is a directory, its directory does not
     *         exist, or a block device is too small
     * @throws IOException if it cannot be opened
     */
    public static RestoreTarget open(String spec, long size, OutputStream stdout) throws IOException {
        if (spec.isEmpty()) {
            throw new IllegalArgumentException("TARGET must not be empty (use - for standard output)");
        }
        if (spec.equals("-") || spec.equals("/dev/stdout")) {
            return new RestoreTarget("standard output", null, null, null, stdout, false);
        }
        Path p = Path.of(spec);
        if (Files.isDirectory(p)) {
            throw new IllegalArgumentException("TARGET " + spec + " is a directory (give a file name, a block device or -)");
        }
        if (Files.exists(p) && BlockDevices.isBlockDevice(p)) {
            long devSize = BlockDevices.size(p);
            if (devSize < size) {
                throw new IllegalArgumentException("TARGET " + spec + " is too small: " + devSize
                        + " bytes, the archive needs " + size);
            }
            return new RestoreTarget(spec, p, null, FileChannel.open(p, StandardOpenOption.WRITE), null, false);
        }
        if (Files.exists(p) && !BlockDevices.isRegularFile(p)) {
            return new RestoreTarget(spec, p, null, null, new FileOutputStream(p.toFile()), true);
        }
        Path parent = p.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new IllegalArgumentException("TARGET " + spec + ": directory " + parent + " does not exist");
        }
        removeStaleTemporaries(parent, p.getFileName() + ".tmp-");
        Path tmp = parent.resolve(p.getFileName() + ".tmp-" + suffix());
        FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            // held until the channel closes, so another restore of the same target sees it is alive
            ch.lock();
            if (size > 0) {
                ch.write(ByteBuffer.wrap(new byte[1]), size - 1); // final length; the rest reads as zeros (holes)
            }
        } catch (IOException e) {
            ch.close();
            Files.deleteIfExists(tmp);
            throw e;
        }
        return new RestoreTarget(spec, p, tmp, ch, null, false);
    }

    /**
     * Removes {@code TARGET.tmp-*} files of earlier restores that died without cleaning up (kill -9):
     * a live restore holds a lock on its temporary file (POSIX record lock, so it is seen from other
     * processes), a dead one does not. Files that cannot be opened or locked are left alone.
     */
    static int removeStaleTemporaries(Path dir, String prefix) {
        int removed = 0;
        try (java.nio.file.DirectoryStream<Path> ds = Files.newDirectoryStream(dir,
                f -> f.getFileName().toString().startsWith(prefix))) {
            for (Path f : ds) {
                if (!Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                try (FileChannel c = FileChannel.open(f, StandardOpenOption.WRITE)) {
                    java.nio.channels.FileLock l = c.tryLock();
                    if (l != null) {
                        Files.deleteIfExists(f); // unlinked while we hold the lock: no live writer can own it
                        removed++;
                    }
                } catch (IOException | java.nio.channels.OverlappingFileLockException e) {
                    // busy in this process, or not ours to touch
                }
            }
        } catch (IOException e) {
            // a listing problem only means nothing is cleaned
        }
        return removed;
    }

    private static String suffix() {
        String chars = "abcdefghijklmnopqrstuvwxyz0123456789";
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            b.append(chars.charAt(RANDOM.nextInt(chars.length())));
        }
        return b.toString();
    }

    /** True if the target takes positional writes ({@link #channel()}), false for a stream. */
    public boolean isPositional() {
        return channel != null;
    }

    /** True for a new regular file: zero chunks may be skipped and still read as zeros. */
    public boolean isFreshFile() {
        return tmp != null;
    }

    /** The channel for positional writes (null for stream targets). */
    public FileChannel channel() {
        return channel;
    }

    /** The stream for in-order writes (null for positional targets). */
    public OutputStream stream() {
        return stream;
    }

    /** How to name the target in messages. */
    public String description() {
        return name;
    }

    /** The temporary file a regular-file target is written to (null otherwise). */
    public Path tempFile() {
        return tmp;
    }

    /** Writes a whole buffer (for blobs): positional at offset 0, or to the stream. */
    public void writeAll(byte[] data) throws IOException {
        if (channel != null) {
            ByteBuffer bb = ByteBuffer.wrap(data);
            while (bb.hasRemaining()) {
                channel.write(bb, bb.position());
            }
        } else {
            stream.write(data);
        }
    }

    /**
     * Makes the data final: flushes it to disk and, for a regular file, renames the temporary
     * file to TARGET (atomically, replacing an existing file).
     */
    public void commit() throws IOException {
        if (channel != null) {
            channel.force(false);
            channel.close();
            if (tmp != null) {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
        } else {
            stream.flush();
        }
        committed = true;
    }

    /** Closes what this target opened; without a commit, removes the temporary file. */
    @Override
    public void close() throws IOException {
        try {
            if (channel != null && channel.isOpen()) {
                channel.close();
            }
            if (ownsStream) {
                stream.close();
            } else if (stream != null) {
                stream.flush();
            }
        } finally {
            if (!committed && tmp != null) {
                Files.deleteIfExists(tmp);
            }
            if (cleanupHook != null) {
                try {
                    Runtime.getRuntime().removeShutdownHook(cleanupHook);
                } catch (IllegalStateException e) {
                    // the JVM is shutting down; the hook runs anyway
                }
            }
        }
    }
}
