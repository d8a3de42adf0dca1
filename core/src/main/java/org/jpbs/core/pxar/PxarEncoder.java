package org.jpbs.core.pxar;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.Objects;

/**
 * Writes a pxar stream ({@code docs/pxar.md}) to any {@link OutputStream}: a file, or the
 * chunker of a dynamic index. The caller adds entries in archive order (children of a
 * directory sorted by name, as {@code pxar} does); the encoder writes the items, keeps the
 * offsets and writes each directory's goodbye table. The output is byte-identical to the
 * Rust encoder's for the same calls. Small items are gathered in a buffer; file contents
 * larger than the buffer go to the output directly. Not thread-safe.
 *
 * <p>Usage: {@code new PxarEncoder(out, rootMetadata)}, then entries, {@link #beginDirectory}
 * / {@link #endDirectory} around a directory's children, and {@link #finish()}.
 */
public final class PxarEncoder implements Closeable {
    private final ItemWriter w;
    private final OutputStream payload;
    private long payloadPosition;
    private final ArrayDeque<DirState> stack = new ArrayDeque<>();
    private long fileRemaining = -1;
    private long fileStart;
    private long fileHash;
    private long fileSize;
    private boolean finished;

    /** Goodbye items of the directory being written. */
    private static final class DirState {
        final long entryOffset;
        final long fileOffset;
        final long hash;
        long[] hashes = new long[16];
        long[] offsets = new long[16];
        long[] sizes = new long[16];
        int count;

        DirState(long entryOffset, long fileOffset, long hash) {
            this.entryOffset = entryOffset;
            this.fileOffset = fileOffset;
            this.hash = hash;
        }

        void add(long h, long off, long size) {
            if (count == hashes.length) {
                hashes = java.util.Arrays.copyOf(hashes, count * 2);
                offsets = java.util.Arrays.copyOf(offsets, count * 2);
                sizes = java.util.Arrays.copyOf(sizes, count * 2);
            }
            hashes[count] = h;
            offsets[count] = off;
            sizes[count] = size;
            count++;
        }
    }

    /** Starts the archive with the root directory's metadata (no FILENAME, no format header). */
    public PxarEncoder(OutputStream out, Metadata root) throws IOException {
        this(out, null, root);
    }

    /**
     * Starts an archive; with {@code payload} non-null a split archive
     * ({@code docs/pxar.md#split-archives}): {@code out} gets the metadata stream (.mpxar,
     * starting with FORMAT_VERSION 2), {@code payload} the file contents (.ppxar).
     */
    public PxarEncoder(OutputStream out, OutputStream payload, Metadata root) throws IOException {
        this.w = new ItemWriter(Objects.requireNonNull(out, "out"));
        this.payload = payload;
        requireType(root, PxarFormat.S_IFDIR, "the root");
        if (payload != null) {
            payloadHeader(PxarFormat.PAYLOAD_START_MARKER, PxarFormat.HEADER_SIZE);
            w.header(PxarFormat.FORMAT_VERSION, PxarFormat.HEADER_SIZE + 8);
            w.putLong(2);
        }
        writeMetadata(root);
        // the root's goodbye tail points at the archive start (its ENTRY, or FORMAT_VERSION before it)
        stack.push(new DirState(0, -1, 0));
    }

    private void payloadHeader(long type, long fullSize) throws IOException {
        byte[] h = new byte[PxarFormat.HEADER_SIZE];
        for (int i = 0; i < 8; i++) {
            h[i] = (byte) (type >>> (8 * i));
            h[8 + i] = (byte) (fullSize >>> (8 * i));
        }
        payload.write(h);
        payloadPosition += h.length;
    }

    /** Bytes written so far (the stream offset of the next item). */
    public long position() {
        return w.position();
    }

    /**
     * Starts a regular file of {@code size} bytes; its contents follow with {@link #write},
     * then {@link #endFile()}.
     *
     * @return the offset of its FILENAME item, to pass to {@link #addHardlink} for later names
     */
    public long beginFile(byte[] name, Metadata meta, long size) throws IOException {
        checkIdle();
        requireType(meta, PxarFormat.S_IFREG, "a file");
        long start = w.position();
        writeFilename(name);
        writeMetadata(meta);
        if (payload != null) {
            w.header(PxarFormat.PAYLOAD_REF, PxarFormat.HEADER_SIZE + 16);
            w.putLong(payloadPosition);
            w.putLong(size);
            payloadHeader(PxarFormat.PAYLOAD, PxarFormat.HEADER_SIZE + size);
        } else {
            w.header(PxarFormat.PAYLOAD, PxarFormat.HEADER_SIZE + size);
        }
        fileStart = start;
        fileHash = PxarFormat.hashFilename(name);
        fileRemaining = size;
        fileSize = size;
        return start;
    }

    /** Contents of the current file. */
    public void write(byte[] b, int off, int len) throws IOException {
        if (len > fileRemaining) {
            throw new IllegalStateException("more contents than the declared file size");
        }
        fileRemaining -= len;
        if (payload != null) {
            payload.write(b, off, len);
            payloadPosition += len;
            return;
        }
        w.putBulk(b, off, len);
    }

    /** Ends the current file; all declared contents must have been written. */
    public void endFile() {
        if (fileRemaining != 0) {
            throw new IllegalStateException(fileRemaining < 0 ? "no file started" : "file ended "
                    + fileRemaining + " bytes short of its declared size");
        }
        fileRemaining = -1;
        // a split archive's goodbye item also counts the payload, as pxar writes it
        long extra = payload != null ? fileSize : 0;
        stack.peek().add(fileHash, fileStart, w.position() - fileStart + extra);
    }

    /** A symbolic link to {@code target}. */
    public void addSymlink(byte[] name, Metadata meta, byte[] target) throws IOException {
        requireType(meta, PxarFormat.S_IFLNK, "a symlink");
        long start = beginEntry(name, meta);
        w.header(PxarFormat.SYMLINK, PxarFormat.HEADER_SIZE + target.length + 1L);
        w.put(target, 0, target.length);
        w.putByte(0);
        endEntry(name, start);
    }

    /** A character or block device. */
    public void addDevice(byte[] name, Metadata meta, long major, long minor) throws IOException {
        if (!meta.stat().isDevice()) {
            throw new IllegalArgumentException("a device needs a device mode");
        }
        long start = beginEntry(name, meta);
        w.header(PxarFormat.DEVICE, PxarFormat.HEADER_SIZE + 16);
        w.putLong(major);
        w.putLong(minor);
        endEntry(name, start);
    }

    /** A fifo or a socket: metadata only. */
    public void addSpecial(byte[] name, Metadata meta) throws IOException {
        int t = meta.stat().fileType();
        if (t != PxarFormat.S_IFIFO && t != PxarFormat.S_IFSOCK) {
            throw new IllegalArgumentException("addSpecial takes a fifo or a socket");
        }
        endEntry(name, beginEntry(name, meta));
    }

    /**
     * A further name of a file already in the archive: {@code targetPath} is its path from the
     * root without a leading slash, {@code targetOffset} what {@link #beginFile} returned.
     */
    public void addHardlink(byte[] name, byte[] targetPath, long targetOffset) throws IOException {
        checkIdle();
        long start = w.position();
        if (targetOffset >= start) {
            throw new IllegalArgumentException("a hardlink can only point to an earlier file");
        }
        writeFilename(name);
        w.header(PxarFormat.HARDLINK, PxarFormat.HEADER_SIZE + 8 + targetPath.length + 1L);
        w.putLong(start - targetOffset);
        w.put(targetPath, 0, targetPath.length);
        w.putByte(0);
        endEntry(name, start);
    }

    /** Starts a subdirectory; its children follow, then {@link #endDirectory()}. */
    public void beginDirectory(byte[] name, Metadata meta) throws IOException {
        checkIdle();
        requireType(meta, PxarFormat.S_IFDIR, "a directory");
        long start = w.position();
        writeFilename(name);
        long entry = w.position();
        writeMetadata(meta);
        stack.push(new DirState(entry, start, PxarFormat.hashFilename(name)));
    }

    /** Ends the current subdirectory with its goodbye table. */
    public void endDirectory() throws IOException {
        checkIdle();
        if (stack.size() < 2) {
            throw new IllegalStateException("endDirectory without beginDirectory");
        }
        DirState d = stack.pop();
        writeGoodbye(d);
        stack.peek().add(d.hash, d.fileOffset, w.position() - d.fileOffset);
    }

    /** Ends the root directory and flushes; the stream is complete. */
    public void finish() throws IOException {
        checkIdle();
        if (stack.size() != 1) {
            throw new IllegalStateException(stack.size() - 1 + " directories not ended");
        }
        writeGoodbye(stack.pop());
        w.flush();
        if (payload != null) {
            payloadHeader(PxarFormat.PAYLOAD_TAIL_MARKER, PxarFormat.HEADER_SIZE);
            payload.flush();
        }
        finished = true;
    }

    /** True once {@link #finish()} has completed. */
    public boolean isFinished() {
        return finished;
    }

    private long beginEntry(byte[] name, Metadata meta) throws IOException {
        checkIdle();
        long start = w.position();
        writeFilename(name);
        writeMetadata(meta);
        return start;
    }

    private void endEntry(byte[] name, long start) {
        stack.peek().add(PxarFormat.hashFilename(name), start, w.position() - start);
    }

    private void checkIdle() {
        if (fileRemaining >= 0) {
            throw new IllegalStateException("the current file is not ended");
        }
        if (finished || stack.isEmpty() && w.position() > 0) {
            throw new IllegalStateException("the archive is finished");
        }
    }

    private static void requireType(Metadata meta, int type, String what) {
        if (meta.stat().fileType() != type) {
            throw new IllegalArgumentException(what + " needs mode type 0" + Integer.toOctalString(type)
                    + ", has 0" + Long.toOctalString(meta.stat().mode()));
        }
    }

    private void writeFilename(byte[] name) throws IOException {
        if (name.length == 0 || (name.length == 1 && name[0] == '.')
                || (name.length == 2 && name[0] == '.' && name[1] == '.')) {
            throw new IllegalArgumentException("invalid file name in archive");
        }
        for (byte b : name) {
            if (b == '/' || b == 0) {
                throw new IllegalArgumentException("file name contains '/' or NUL");
            }
        }
        w.header(PxarFormat.FILENAME, PxarFormat.HEADER_SIZE + name.length + 1L);
        w.put(name, 0, name.length);
        w.putByte(0);
    }

    private void writeMetadata(Metadata m) throws IOException {
        Stat s = m.stat();
        w.header(PxarFormat.ENTRY, PxarFormat.HEADER_SIZE + PxarFormat.STAT_SIZE);
        w.putLong(s.mode());
        w.putLong(s.flags());
        w.putInt(s.uid());
        w.putInt(s.gid());
        w.putLong(s.mtimeSecs());
        w.putInt(s.mtimeNanos());
        w.putInt(0);
        for (XAttr x : m.xattrs()) {
            w.header(PxarFormat.XATTR, PxarFormat.HEADER_SIZE + x.name().length + 1L + x.value().length);
            w.put(x.name(), 0, x.name().length);
            w.putByte(0);
            w.put(x.value(), 0, x.value().length);
        }
        Acl a = m.acl();
        for (Acl.Entry e : a.users()) {
            pair(PxarFormat.ACL_USER, e);
        }
        for (Acl.Entry e : a.groups()) {
            pair(PxarFormat.ACL_GROUP, e);
        }
        if (a.groupObj() != null) {
            w.header(PxarFormat.ACL_GROUP_OBJ, PxarFormat.HEADER_SIZE + 8);
            w.putLong(a.groupObj());
        }
        if (a.defaultAcl() != null) {
            Acl.Default d = a.defaultAcl();
            w.header(PxarFormat.ACL_DEFAULT, PxarFormat.HEADER_SIZE + 32);
            w.putLong(d.userObj());
            w.putLong(d.groupObj());
            w.putLong(d.other());
            w.putLong(d.mask());
        }
        for (Acl.Entry e : a.defaultUsers()) {
            pair(PxarFormat.ACL_DEFAULT_USER, e);
        }
        for (Acl.Entry e : a.defaultGroups()) {
            pair(PxarFormat.ACL_DEFAULT_GROUP, e);
        }
        if (m.fcaps() != null) {
            w.header(PxarFormat.FCAPS, PxarFormat.HEADER_SIZE + m.fcaps().length);
            w.put(m.fcaps(), 0, m.fcaps().length);
        }
        if (m.quotaProjectId() != 0) {
            w.header(PxarFormat.QUOTA_PROJID, PxarFormat.HEADER_SIZE + 8);
            w.putLong(m.quotaProjectId());
        }
    }

    private void pair(long type, Acl.Entry e) throws IOException {
        w.header(type, PxarFormat.HEADER_SIZE + 16);
        w.putLong(e.id());
        w.putLong(e.permissions());
    }

    private void writeGoodbye(DirState d) throws IOException {
        long goodbye = w.position();
        int count = d.count;
        long size = PxarFormat.HEADER_SIZE + (long) (count + 1) * PxarFormat.GOODBYE_ITEM_SIZE;
        w.header(PxarFormat.GOODBYE, size);
        Integer[] sorted = GoodbyeOrder.sortByHash(d.hashes, count);
        int[] perm = GoodbyeOrder.permutation(count);
        for (int slot = 0; slot < count; slot++) {
            int i = sorted[perm[slot]];
            w.putLong(d.hashes[i]);
            w.putLong(goodbye - d.offsets[i]);
            w.putLong(d.sizes[i]);
        }
        w.putLong(PxarFormat.GOODBYE_TAIL_MARKER);
        w.putLong(goodbye - d.entryOffset);
        w.putLong(size);
    }

    /** Flushes buffered items and closes the output. Does not finish the archive. */
    @Override
    public void close() throws IOException {
        w.close();
    }
}
