package org.jpbs.core.pxar;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a pxar stream sequentially ({@code docs/pxar.md}) from any {@link InputStream}: the
 * archive file, or the concatenated chunks of a dynamic index. {@link #next()} returns the
 * entries in archive order; the contents of a {@link PxarEntry.Kind#FILE} can be read with
 * {@link #read} before the next call (or are skipped). Every goodbye table is checked against
 * the children actually read (hashes, offsets, sizes, tree order), so a stream that decodes
 * without an exception is structurally sound. Not thread-safe.
 */
public final class PxarDecoder implements EntrySource {
    private final ItemReader in;
    private final ArrayDeque<Dir> stack = new ArrayDeque<>();
    private long payloadRemaining;
    private boolean started;
    private boolean done;

    /** A directory being read: its children's goodbye items so far. */
    private static final class Dir {
        final byte[] path;
        final Metadata metadata;
        final long entryOffset;
        final List<long[]> children = new ArrayList<>();
        boolean pending;
        long pendingHash;
        long pendingOffset;
        /** A split archive's new file: its goodbye size also counts the payload (as pxar writes it). */
        long pendingPayload;

        Dir(byte[] path, Metadata metadata, long entryOffset) {
            this.path = path;
            this.metadata = metadata;
            this.entryOffset = entryOffset;
        }

        void completePending(long end) {
            if (pending) {
                children.add(new long[] {pendingHash, pendingOffset, end - pendingOffset, pendingPayload});
                pending = false;
                pendingPayload = 0;
            }
        }
    }

    public PxarDecoder(InputStream in) {
        this.in = new ItemReader(in);
    }

    private PxarDecoder(InputStream in, long offset, byte[] dirPath) {
        this.in = new ItemReader(in, offset, 512); // one entry: small reads (the buffer grows for a larger item)
        this.started = true;
        this.stack.push(new Dir(dirPath, null, -1));
    }

    /**
     * A decoder for the one entry whose FILENAME item starts at archive offset {@code offset}
     * ({@code in} delivers the archive from there) in the directory {@code dirPath}: the first
     * {@link #next()} returns it (a directory's children are not read), {@link #read} gives a
     * file's contents. Used for random access ({@link PxarAccessor}).
     */
    static PxarDecoder entryAt(InputStream in, long offset, byte[] dirPath) {
        return new PxarDecoder(in, offset, dirPath);
    }

    /** The stream offset the decoder has reached. */
    public long position() {
        return in.position();
    }

    /**
     * The next entry, or null after the root directory's goodbye table (the stream must end
     * there).
     *
     * @throws PxarFormatException if the stream breaks the format
     */
    public PxarEntry next() throws IOException {
        skipContents();
        if (!started) {
            started = true;
            return readRoot();
        }
        if (stack.isEmpty()) {
            if (!done) {
                done = true;
                if (!in.atEnd()) {
                    throw new PxarFormatException(in.position(), "data after the end of the root directory");
                }
            }
            return null;
        }
        Dir top = stack.peek();
        top.completePending(in.position());
        long off = in.position();
        long htype = in.readLong();
        long size = in.readLong();
        if (htype == PxarFormat.FILENAME) {
            byte[] name = readFilename(off, size);
            top.pending = true;
            top.pendingHash = PxarFormat.hashFilename(name);
            top.pendingOffset = off;
            byte[] path = join(top.path, name);
            long itemOff = in.position();
            long t = in.readLong();
            long s = in.readLong();
            if (t == PxarFormat.HARDLINK) {
                byte[] content = in.readContent(itemOff, s, PxarFormat.MAX_METADATA_ITEM);
                if (content.length < 9 || content[content.length - 1] != 0) {
                    throw new PxarFormatException(itemOff, "HARDLINK item too short or not NUL-terminated");
                }
                long linkOff = ItemReader.getLong(content, 0);
                if (linkOff <= 0 || linkOff > off) {
                    throw new PxarFormatException(itemOff, "HARDLINK offset " + Long.toUnsignedString(linkOff)
                            + " does not point to an earlier entry");
                }
                byte[] target = java.util.Arrays.copyOfRange(content, 8, content.length - 1);
                return new PxarEntry(PxarEntry.Kind.HARDLINK, path, null, 0, target, 0, 0, linkOff, off, -1);
            }
            if (t != PxarFormat.ENTRY) {
                throw new PxarFormatException(itemOff, "expected ENTRY or HARDLINK after FILENAME, found "
                        + PxarFormat.typeName(t));
            }
            return readEntry(path, itemOff, s, off);
        }
        if (htype == PxarFormat.GOODBYE) {
            GoodbyeOrder.check(in, top.children, top.entryOffset, off, size);
            stack.pop();
            Dir parent = stack.peek();
            if (parent != null) {
                parent.completePending(in.position());
            }
            return new PxarEntry(PxarEntry.Kind.DIRECTORY_END, top.path, top.metadata, 0, null, 0, 0, 0,
                    top.entryOffset, -1);
        }
        throw new PxarFormatException(off, "expected FILENAME or GOODBYE in directory "
                + new PxarEntry(PxarEntry.Kind.DIRECTORY, top.path, null, 0, null, 0, 0, 0, 0, -1).displayPath()
                + ", found " + PxarFormat.typeName(htype));
    }

    /**
     * Reads contents of the current file into {@code b[off, off+len)}.
     *
     * @return bytes read, or -1 at the end of the file's contents
     */
    public int read(byte[] b, int off, int len) throws IOException {
        if (payloadRemaining == 0) {
            return -1;
        }
        int n = in.readPayload(b, off, (int) Math.min(len, payloadRemaining));
        payloadRemaining -= n;
        return n;
    }

    /** The not yet read contents of the current file as a stream (valid until {@link #next()}). */
    public InputStream contents() {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return PxarDecoder.this.read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return len == 0 ? 0 : PxarDecoder.this.read(b, off, len);
            }
        };
    }

    private void skipContents() throws IOException {
        if (payloadRemaining > 0) {
            in.skip(payloadRemaining);
            payloadRemaining = 0;
        }
    }

    private PxarEntry readRoot() throws IOException {
        long off = in.position();
        long htype = in.readLong();
        long size = in.readLong();
        if (htype == PxarFormat.FORMAT_VERSION) {
            byte[] v = in.readContent(off, size, 8);
            if (v.length != 8 || ItemReader.getLong(v, 0) != 2) {
                throw new PxarFormatException(off, "unsupported pxar FORMAT_VERSION");
            }
            off = in.position();
            htype = in.readLong();
            size = in.readLong();
            if (htype == PxarFormat.PRELUDE) {
                in.readContent(off, size, PxarFormat.MAX_METADATA_ITEM);
                off = in.position();
                htype = in.readLong();
                size = in.readLong();
            }
        }
        if (htype != PxarFormat.ENTRY) {
            throw new PxarFormatException(off, "not a pxar archive: expected the root ENTRY, found "
                    + PxarFormat.typeName(htype));
        }
        PxarEntry root = readEntry(new byte[0], off, size, off);
        if (root.kind() != PxarEntry.Kind.DIRECTORY) {
            throw new PxarFormatException(off, "the root entry is not a directory");
        }
        return root;
    }

    private PxarEntry readEntry(byte[] path, long entryOff, long size, long fileOffset) throws IOException {
        Metadata meta = readMetadata(entryOff, size);
        Stat st = meta.stat();
        switch (st.fileType()) {
            case PxarFormat.S_IFDIR -> {
                Dir parent = stack.peek();
                // the root's goodbye tail points at the archive start (before a FORMAT_VERSION item)
                stack.push(new Dir(path, meta, parent == null ? 0 : entryOff));
                if (parent != null) {
                    parent.pending = true; // completed when the child's goodbye table is read
                }
                return new PxarEntry(PxarEntry.Kind.DIRECTORY, path, meta, 0, null, 0, 0, 0, fileOffset, -1);
            }
            case PxarFormat.S_IFREG -> {
                long off = in.position();
                long t = in.readLong();
                long s = in.readLong();
                if (t == PxarFormat.PAYLOAD) {
                    if (Long.compareUnsigned(s, PxarFormat.HEADER_SIZE) < 0) {
                        throw new PxarFormatException(off, "PAYLOAD size " + Long.toUnsignedString(s) + " < 16");
                    }
                    payloadRemaining = s - PxarFormat.HEADER_SIZE;
                    return new PxarEntry(PxarEntry.Kind.FILE, path, meta, payloadRemaining, null, 0, 0, 0,
                            fileOffset, -1);
                }
                if (t == PxarFormat.PAYLOAD_REF) {
                    byte[] c = in.readContent(off, s, 16);
                    if (c.length != 16) {
                        throw new PxarFormatException(off, "PAYLOAD_REF must hold 16 bytes");
                    }
                    Dir parent = stack.peek();
                    if (parent != null) {
                        parent.pendingPayload = ItemReader.getLong(c, 8);
                    }
                    return new PxarEntry(PxarEntry.Kind.FILE, path, meta, ItemReader.getLong(c, 8), null, 0, 0, 0,
                            fileOffset, ItemReader.getLong(c, 0));
                }
                throw new PxarFormatException(off, "expected PAYLOAD for a regular file, found "
                        + PxarFormat.typeName(t));
            }
            case PxarFormat.S_IFLNK -> {
                byte[] target = readTerminated(PxarFormat.SYMLINK, "SYMLINK");
                return new PxarEntry(PxarEntry.Kind.SYMLINK, path, meta, 0, target, 0, 0, 0, fileOffset, -1);
            }
            case PxarFormat.S_IFCHR, PxarFormat.S_IFBLK -> {
                long off = in.position();
                long t = in.readLong();
                long s = in.readLong();
                if (t != PxarFormat.DEVICE) {
                    throw new PxarFormatException(off, "expected DEVICE, found " + PxarFormat.typeName(t));
                }
                byte[] c = in.readContent(off, s, 16);
                if (c.length != 16) {
                    throw new PxarFormatException(off, "DEVICE must hold 16 bytes");
                }
                return new PxarEntry(PxarEntry.Kind.DEVICE, path, meta, 0, null, ItemReader.getLong(c, 0),
                        ItemReader.getLong(c, 8), 0, fileOffset, -1);
            }
            case PxarFormat.S_IFIFO -> {
                return new PxarEntry(PxarEntry.Kind.FIFO, path, meta, 0, null, 0, 0, 0, fileOffset, -1);
            }
            case PxarFormat.S_IFSOCK -> {
                return new PxarEntry(PxarEntry.Kind.SOCKET, path, meta, 0, null, 0, 0, 0, fileOffset, -1);
            }
            default -> throw new PxarFormatException(entryOff, String.format("unknown file type in mode 0%o", st.mode()));
        }
    }

    private Metadata readMetadata(long entryOff, long size) throws IOException {
        byte[] s = in.readContent(entryOff, size, PxarFormat.STAT_SIZE);
        if (s.length != PxarFormat.STAT_SIZE) {
            throw new PxarFormatException(entryOff, "ENTRY must hold 40 bytes, holds " + s.length);
        }
        Stat stat = new Stat(ItemReader.getLong(s, 0), ItemReader.getLong(s, 8), ItemReader.getInt(s, 16),
                ItemReader.getInt(s, 20), ItemReader.getLong(s, 24), ItemReader.getInt(s, 32));
        MetadataItems items = new MetadataItems();
        while (true) {
            long t = in.peekLong();
            if (!MetadataItems.isMetadata(t)) {
                break;
            }
            long off = in.position();
            in.readLong();
            long sz = in.readLong();
            items.add(off, t, in.readContent(off, sz, PxarFormat.MAX_METADATA_ITEM));
        }
        return items.build(stat);
    }

    private byte[] readFilename(long off, long size) throws IOException {
        byte[] c = in.readContent(off, size, 4097);
        int n = c.length - 1;
        if (n < 1 || c[n] != 0) {
            throw new PxarFormatException(off, "FILENAME empty or not NUL-terminated");
        }
        for (int i = 0; i < n; i++) {
            if (c[i] == '/' || c[i] == 0) {
                throw new PxarFormatException(off, "FILENAME contains '/' or NUL");
            }
        }
        if ((n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.')) {
            throw new PxarFormatException(off, "FILENAME is '.' or '..'");
        }
        return java.util.Arrays.copyOf(c, n);
    }

    private byte[] readTerminated(long expected, String what) throws IOException {
        long off = in.position();
        long t = in.readLong();
        long s = in.readLong();
        if (t != expected) {
            throw new PxarFormatException(off, "expected " + what + ", found " + PxarFormat.typeName(t));
        }
        byte[] c = in.readContent(off, s, PxarFormat.MAX_METADATA_ITEM);
        if (c.length == 0 || c[c.length - 1] != 0) {
            throw new PxarFormatException(off, what + " not NUL-terminated");
        }
        return java.util.Arrays.copyOf(c, c.length - 1);
    }

    /** The path of {@code name} in the directory {@code dir} (paths below the root, no leading slash). */
    public static byte[] join(byte[] dir, byte[] name) {
        if (dir.length == 0) {
            return name;
        }
        byte[] p = new byte[dir.length + 1 + name.length];
        System.arraycopy(dir, 0, p, 0, dir.length);
        p[dir.length] = '/';
        System.arraycopy(name, 0, p, dir.length + 1, name.length);
        return p;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
