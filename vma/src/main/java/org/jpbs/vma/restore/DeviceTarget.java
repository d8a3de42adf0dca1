package org.jpbs.vma.restore;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Where one device of an archive is restored: an existing file or block device opened for
 * positional writes, optionally with {@code O_DIRECT} ({@code ExtendedOpenOption.DIRECT}; no page cache, as a restore to ZFS or
 * LVM with {@code cache=none} sees it).
 *
 * <p>Writes are clamped to the device size (the last cluster may be partial; {@code docs/vma.md#zero-blocks-order-and-vmstate}). With {@code O_DIRECT} the JDK requires the file offset,
 * the buffer address and the length to be multiples of the file store's block size
 * ({@link java.nio.file.FileStore#getBlockSize()}): the aligned part of a write goes through
 * the direct channel, an unaligned tail (a device size that is not a multiple of it) through a
 * second, buffered channel. Counts write requests (one per {@code pwrite}) and bytes.
 * Not thread-safe.
 */
public final class DeviceTarget implements Closeable {
    private final String name;
    private final Path path;
    private final long size;
    private final boolean writeZeroes;
    private final FileChannel channel;
    private final int alignment;
    private FileChannel buffered;
    private long requests;
    private long bytes;

    private DeviceTarget(String name, Path path, long size, boolean writeZeroes, FileChannel channel, int alignment) {
        this.name = name;
        this.path = path;
        this.size = size;
        this.writeZeroes = writeZeroes;
        this.channel = channel;
        this.alignment = alignment;
    }

    /**
     * Opens an existing file or block device for writing (it is neither created nor truncated).
     *
     * @param name        how to name the target in messages
     * @param path        the file or block device
     * @param size        the device size in bytes (writes beyond are dropped)
     * @param direct      open with {@code O_DIRECT}
     * @param writeZeroes write absent (all-zero) blocks as zeros; otherwise the target must
     *                    already read as zeros there (a new sparse file, a pre-zeroed volume)
     * @throws IOException naming the path, e.g. when the file system does not support
     *         {@code O_DIRECT} (tmpfs) or the target is not writable
     */
    public static DeviceTarget open(String name, Path path, long size, boolean direct, boolean writeZeroes)
            throws IOException {
        OpenOption[] opts = direct ? new OpenOption[] {StandardOpenOption.WRITE, directOption()}
                : new OpenOption[] {StandardOpenOption.WRITE};
        FileChannel ch;
        try {
            ch = FileChannel.open(path, opts);
        } catch (IOException e) {
            if (direct && e.getMessage() != null && e.getMessage().contains("Invalid argument")) {
                throw new IOException(path + ": cannot open with O_DIRECT (--direct); its file system does not support"
                        + " direct I/O (tmpfs before Linux 6.6 does not)", e);
            }
            throw e;
        }
        int align = 1;
        if (direct) {
            try {
                align = (int) Math.max(512, java.nio.file.Files.getFileStore(path).getBlockSize());
            } catch (IOException | UnsupportedOperationException e) {
                align = 4096;
            }
        }
        return new DeviceTarget(name, path, size, writeZeroes, ch, align);
    }

    /**
     * {@code com.sun.nio.file.ExtendedOpenOption.DIRECT} (module jdk.unsupported, exported), looked
     * up at run time: javac warns about every compile-time use of that package.
     *
     * @throws IOException if this JVM has no such option
     */
    private static OpenOption directOption() throws IOException {
        try {
            return (OpenOption) Class.forName("com.sun.nio.file.ExtendedOpenOption").getField("DIRECT").get(null);
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IOException("--direct: this Java runtime has no O_DIRECT open option", e);
        }
    }

    /** How the target is named in messages. */
    public String name() {
        return name;
    }

    /** The file or block device. */
    public Path path() {
        return path;
    }

    /** Device size in bytes. */
    public long size() {
        return size;
    }

    /** Whether absent blocks are written as zeros. */
    public boolean writeZeroes() {
        return writeZeroes;
    }

    /** True if opened with {@code O_DIRECT}. */
    public boolean direct() {
        return alignment > 1;
    }

    /** Buffer, offset and length alignment in bytes for direct writes (1 if not direct). */
    public int alignment() {
        return alignment;
    }

    /** Write requests issued so far. */
    public long requests() {
        return requests;
    }

    /** Bytes written so far. */
    public long bytes() {
        return bytes;
    }

    /**
     * Writes {@code src}'s remaining bytes at device offset {@code pos}, clamped to the device size.
     *
     * @throws IOException naming the target if a write fails
     */
    public void write(ByteBuffer src, long pos) throws IOException {
        long len = Math.min(src.remaining(), size - pos);
        if (len <= 0) {
            return;
        }
        ByteBuffer b = src.duplicate();
        b.limit(b.position() + (int) len);
        try {
            if (alignment > 1 && pos % alignment == 0 && b.isDirect() && b.alignmentOffset(b.position(), alignment) == 0) {
                int aligned = (int) (len - len % alignment);
                if (aligned > 0) {
                    ByteBuffer head = b.duplicate();
                    head.limit(head.position() + aligned);
                    writeFully(channel, head, pos);
                    b.position(b.position() + aligned);
                    pos += aligned;
                }
                if (b.hasRemaining()) {
                    writeFully(bufferedChannel(), b, pos);
                }
            } else {
                writeFully(alignment > 1 ? bufferedChannel() : channel, b, pos);
            }
        } catch (IOException e) {
            throw new IOException(name + ": write of " + len + " bytes at offset " + pos + " failed: " + e.getMessage(), e);
        }
    }

    private FileChannel bufferedChannel() throws IOException {
        if (buffered == null) {
            buffered = FileChannel.open(path, StandardOpenOption.WRITE);
        }
        return buffered;
    }

    private void writeFully(FileChannel ch, ByteBuffer b, long pos) throws IOException {
        requests++;
        while (b.hasRemaining()) {
            int n = ch.write(b, pos);
            pos += n;
            bytes += n;
        }
    }

    /** Flushes written data to the device ({@code fdatasync}). */
    public void flush() throws IOException {
        channel.force(false);
        if (buffered != null) {
            buffered.force(false);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            channel.close();
        } finally {
            if (buffered != null) {
                buffered.close();
            }
        }
    }

    @Override
    public String toString() {
        return name + (direct() ? " (O_DIRECT)" : "");
    }
}
