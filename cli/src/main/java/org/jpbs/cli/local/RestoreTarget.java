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
import java.nio.file.attribute.UserDefinedFileAttributeView;
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
    /** Between TARGET's name and the random suffix of its temporary file. */
    static final String TMP_INFIX = ".tmp-jpbs-";
    /** Length of the random suffix (lowercase hex). */
    static final int SUFFIX_LENGTH = 16;
    /** User xattr that marks a temporary restore file as jpbs's. */
    static final String MARKER = "jpbs.restore-tmp";
    private static final String MARKER_VALUE = "1";

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
        // Ctrl-C during a restore must not leave TARGET.tmp-jpbs-XXXX behind
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
        Path p = followLink(spec, Path.of(spec));
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
        String base = p.getFileName().toString();
        removeStaleTemporaries(parent, base);
        Path tmp = parent.resolve(base + TMP_INFIX + suffix());
        FileChannel ch;
        try {
            ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (java.nio.file.AccessDeniedException e) {
            throw new IOException("TARGET " + spec + ": cannot create a file in " + parent + ": permission denied", e);
        }
        try {
            // held until the channel closes, so another restore of the same target sees it is alive
            ch.lock();
            mark(tmp);
            if (size > 0) {
                ch.write(ByteBuffer.wrap(new byte[1]), size - 1); // final length; the rest reads as zeros (holes)
            }
        } catch (IOException e) {
            ch.close();
            Files.deleteIfExists(tmp);
            throw e;
        }
        return new RestoreTarget(spec, p.toAbsolutePath(), tmp, ch, null, false);
    }

    /**
     * A TARGET that is a symbolic link is followed (as a shell's {@code >} does): the data replaces
     * the file the link points to and the link itself stays. A link to a device writes the device.
     *
     * @throws IllegalArgumentException naming the link if it is dangling or cannot be resolved
     */
    static Path followLink(String spec, Path p) throws IOException {
        if (!Files.isSymbolicLink(p)) {
            return p;
        }
        Path link = p.toAbsolutePath();
        for (int i = 0; i < 40 && Files.isSymbolicLink(link); i++) {
            refuseForeignStickyLink(spec, link);
            link = link.getParent().resolve(Files.readSymbolicLink(link)).normalize();
        }
        try {
            return p.toRealPath();
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalArgumentException("TARGET " + spec + " is a symbolic link to " + Files.readSymbolicLink(p)
                    + ", which does not exist (create it, or give the real path)");
        } catch (java.nio.file.FileSystemException e) {
            throw new IllegalArgumentException("TARGET " + spec + " is a symbolic link that cannot be followed: "
                    + (e.getReason() == null ? e.getClass().getSimpleName() : e.getReason()));
        }
    }

    /**
     * The kernel's {@code protected_symlinks} rule, applied whatever the sysctl says: a link in a
     * sticky world-writable directory (such as {@code /tmp}) is followed only if it belongs to
     * the caller or to the directory's owner. Otherwise another user could point
     * {@code /tmp/disk.img} at any file the caller (often root) may write, and the restore would
     * replace that file.
     */
    private static void refuseForeignStickyLink(String spec, Path link) throws IOException {
        Path dir = link.getParent();
        int dirMode;
        int dirUid;
        int linkUid;
        try {
            dirMode = (Integer) Files.getAttribute(dir, "unix:mode");
            dirUid = (Integer) Files.getAttribute(dir, "unix:uid");
            linkUid = (Integer) Files.getAttribute(link, "unix:uid", java.nio.file.LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return; // no unix attributes here: nothing to check
        }
        boolean stickyWorldWritable = (dirMode & 01000) != 0 && (dirMode & 0002) != 0;
        if (!stickyWorldWritable || linkUid == dirUid || linkUid == callerUid()) {
            return;
        }
        throw new IllegalArgumentException("TARGET " + spec + " is a symbolic link " + link + " owned by uid " + linkUid
                + " in the sticky world-writable directory " + dir + ", which is not followed (another user's link;"
                + " give the real path)");
    }

    /** The effective uid of this process (the owner of {@code /proc/self}), or -1 if unknown. */
    private static int callerUid() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Sets the jpbs marker on a temporary file (best effort: a file system without user xattrs gets none). */
    private static void mark(Path tmp) {
        try {
            UserDefinedFileAttributeView v = Files.getFileAttributeView(tmp, UserDefinedFileAttributeView.class);
            if (v != null) {
                v.write(MARKER, ByteBuffer.wrap(MARKER_VALUE.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
            }
        } catch (IOException | UnsupportedOperationException e) {
            // no user xattrs here: the exact name pattern alone identifies the file
        }
    }

    /**
     * True if {@code f} carries the jpbs marker, or if its file system has no user xattrs at all
     * (then the name pattern alone decides). A file without the marker on a file system that has
     * them (a user's copy, renamed to look like ours) is not ours.
     */
    static boolean carriesMarker(Path f) {
        UserDefinedFileAttributeView v = Files.getFileAttributeView(f, UserDefinedFileAttributeView.class,
                java.nio.file.LinkOption.NOFOLLOW_LINKS);
        if (v == null) {
            return true;
        }
        try {
            if (!v.list().contains(MARKER)) {
                return false;
            }
            ByteBuffer b = ByteBuffer.allocate(64);
            v.read(MARKER, b);
            return new String(b.array(), 0, b.position(), java.nio.charset.StandardCharsets.US_ASCII).equals(MARKER_VALUE);
        } catch (java.nio.file.FileSystemException e) {
            return e.getReason() != null && e.getReason().contains("not supported");
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /**
     * Removes the temporary files of earlier restores of {@code TARGET} (named {@code base} in
     * {@code dir}) that died without cleaning up (kill -9). Only a regular file (not a link) whose
     * name is exactly {@code base.tmp-jpbs-} followed by 16 lowercase hex digits, that carries the
     * jpbs marker ({@link #carriesMarker}) and that no live restore holds locked (a live restore
     * holds a POSIX record lock on it, seen from other processes) is removed; everything else —
     * {@code disk.img.tmp-keepme}, {@code disk.img.tmp-2024-01-01-backup} — is left alone.
     */
    static int removeStaleTemporaries(Path dir, String base) {
        java.util.regex.Pattern ours = java.util.regex.Pattern.compile(
                java.util.regex.Pattern.quote(base + TMP_INFIX) + "[0-9a-f]{" + SUFFIX_LENGTH + "}");
        int removed = 0;
        try (java.nio.file.DirectoryStream<Path> ds = Files.newDirectoryStream(dir,
                f -> ours.matcher(f.getFileName().toString()).matches())) {
            for (Path f : ds) {
                if (!Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS) || !carriesMarker(f)) {
                    continue;
                }
                try (FileChannel c = FileChannel.open(f, StandardOpenOption.WRITE, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
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
        byte[] b = new byte[SUFFIX_LENGTH / 2];
        RANDOM.nextBytes(b);
        return java.util.HexFormat.of().formatHex(b);
    }

    /**
     * An error of a restore named after its TARGET: a full file system or used-up quota becomes
     * {@code TARGET <spec>: no space left on device} (the JDK's bare "No space left on device"
     * names nothing), or {@code cannot write to standard output: ...} for {@code -}; anything
     * else is returned as it is.
     */
    public static IOException named(String spec, IOException e) {
        if (!org.jpbs.datastore.os.StorageFullException.isNoSpace(e)) {
            return e;
        }
        String reason = String.valueOf(e.getMessage()).contains("quota") ? "disk quota exceeded" : "no space left on device";
        if (spec.equals("-")) {
            return new IOException("cannot write to standard output: " + reason, e);
        }
        return new IOException("TARGET " + spec + ": " + reason
                + (spec.startsWith("/dev/") ? "" : " (the partial file was removed)"), e);
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
