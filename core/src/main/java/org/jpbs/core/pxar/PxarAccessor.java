package org.jpbs.core.pxar;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Random access to a pxar archive through its goodbye tables ({@code docs/pxar.md#goodbye-tables}):
 * look a path up, list a directory, read one file, without reading the rest of the archive.
 * A lookup reads one goodbye table per path component and searches it as the binary tree it
 * is (by file name hash), then checks the name. Works on any {@link ReadAt}. Thread-safe if
 * the source is.
 */
public final class PxarAccessor {
    private final ReadAt src;
    private final ReadAt payload;
    private volatile Node root;

    /**
     * An entry found by the accessor: the decoded entry, where its FILENAME starts and how
     * long it is in total (for a directory, up to the end of its goodbye table).
     */
    public record Node(PxarEntry entry, long offset, long size) {
        public boolean isDirectory() {
            return entry.kind() == PxarEntry.Kind.DIRECTORY;
        }
    }

    public PxarAccessor(ReadAt src) {
        this(src, null);
    }

    /**
     * An accessor of a split archive: {@code src} the metadata stream ({@code .mpxar}),
     * {@code payload} the contents ({@code .ppxar}, or null for a unified archive).
     */
    public PxarAccessor(ReadAt src, ReadAt payload) {
        this.src = src;
        this.payload = payload;
    }

    /** The root directory (read once: every lookup starts there). */
    public Node root() throws IOException {
        Node r = root;
        if (r == null) {
            r = readRoot();
            root = r;
        }
        return r;
    }

    private Node readRoot() throws IOException {
        long size = src.size();
        if (size < PxarFormat.HEADER_SIZE + PxarFormat.STAT_SIZE + 40) {
            throw new PxarFormatException(0, "archive too short");
        }
        byte[] tail = src.readFully(size - PxarFormat.GOODBYE_ITEM_SIZE, PxarFormat.GOODBYE_ITEM_SIZE);
        if (ItemReader.getLong(tail, 0) != PxarFormat.GOODBYE_TAIL_MARKER) {
            throw new PxarFormatException(size - 24, "the archive does not end with a goodbye table");
        }
        long goodbyeStart = size - ItemReader.getLong(tail, 16);
        long entryOffset = goodbyeStart - ItemReader.getLong(tail, 8);
        try (PxarDecoder d = new PxarDecoder(src.streamFrom(entryOffset))) {
            if (entryOffset != 0) {
                throw new PxarFormatException(entryOffset, "root entry is not at the start");
            }
            return new Node(d.next(), 0, size);
        }
    }

    /** The entry at {@code path} (components separated by '/', no leading slash), or null. */
    public Node lookup(byte[] path) throws IOException {
        Node n = root();
        int start = 0;
        while (start < path.length) {
            int end = start;
            while (end < path.length && path[end] != '/') {
                end++;
            }
            if (end > start) {
                if (!n.isDirectory()) {
                    return null;
                }
                n = child(n, Arrays.copyOfRange(path, start, end));
                if (n == null) {
                    return null;
                }
            }
            start = end + 1;
        }
        return n;
    }

    /** The child {@code name} of directory {@code dir}, or null. */
    public Node child(Node dir, byte[] name) throws IOException {
        Table t = table(dir);
        long hash = PxarFormat.hashFilename(name);
        List<Integer> candidates = new ArrayList<>();
        search(t, 0, hash, candidates);
        for (int i : candidates) {
            Node c = nodeAt(dir, t.start - t.offsets[i], t.sizes[i]);
            if (Arrays.equals(c.entry().name(), name)) {
                return c;
            }
        }
        return null;
    }

    /** The children of {@code dir} in archive order. */
    public List<Node> list(Node dir) throws IOException {
        Table t = table(dir);
        Integer[] order = new Integer[t.n];
        for (int i = 0; i < t.n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compareUnsigned(t.offsets[b], t.offsets[a]));
        List<Node> out = new ArrayList<>(t.n);
        for (int i : order) {
            out.add(nodeAt(dir, t.start - t.offsets[i], t.sizes[i]));
        }
        return out;
    }

    /** The first name of a hardlink's inode (the entry holding the contents). */
    public Node resolveHardlink(Node link) throws IOException {
        PxarEntry e = link.entry();
        if (e.kind() != PxarEntry.Kind.HARDLINK) {
            return link;
        }
        Node target = lookup(e.linkTarget());
        if (target == null || target.offset() != e.fileOffset() - e.hardlinkOffset()) {
            throw new PxarFormatException(link.offset(), "hardlink target " + new String(e.linkTarget(),
                    java.nio.charset.StandardCharsets.UTF_8) + " not found at its offset");
        }
        return target;
    }

    /** The contents of a regular file (streamed from the archive). */
    public InputStream open(Node file) throws IOException {
        Node f = resolveHardlink(file);
        if (f.entry().kind() != PxarEntry.Kind.FILE) {
            throw new IllegalArgumentException("not a regular file: " + f.entry().displayPath());
        }
        byte[] parent = parentOf(f.entry().path());
        PxarDecoder d = PxarDecoder.entryAt(src.streamFrom(f.offset()), f.offset(), parent);
        return contents(d, d.next());
    }

    /**
     * A decoder of {@code node} and, for a directory, everything below it: the first
     * {@link PxarDecoder#next()} returns the node, a directory's entries follow in archive order
     * and its {@link PxarEntry.Kind#DIRECTORY_END} is the last event the caller should ask for.
     * Reads only the node's range of the archive.
     */
    public PxarDecoder decoder(Node node) {
        if (node.offset() == 0) {
            return new PxarDecoder(src.streamFrom(0, node.size()));
        }
        return PxarDecoder.entryAt(src.streamFrom(node.offset(), node.size()), node.offset(),
                parentOf(node.entry().path()));
    }

    /**
     * The contents of the file entry {@code e} that {@code d} just returned: from the decoder,
     * or from the payload stream for a split archive's file.
     */
    public InputStream contents(PxarDecoder d, PxarEntry e) throws IOException {
        return e.hasPayloadRef() ? payloadOf(payload, e) : d.contents();
    }

    /**
     * The contents of a split archive's file from its payload stream ({@code .ppxar}): the
     * PAYLOAD item at the entry's reference, checked for type and size.
     */
    public static InputStream payloadOf(ReadAt payload, PxarEntry e) throws IOException {
        if (payload == null) {
            throw new IOException(e.displayPath() + ": the archive is split (.mpxar) but no payload stream (.ppxar) was given");
        }
        return payload.streamFrom(payloadOffset(payload, e), e.fileSize());
    }

    /**
     * Where a regular file's contents start in the archive (just after its PAYLOAD header;
     * {@code entry().fileSize()} bytes follow), for reads at any offset. A hardlink is resolved
     * first. For a split archive's file ({@link PxarEntry#hasPayloadRef()}) the contents are in
     * the payload stream instead: -1.
     */
    public long contentOffset(Node file) throws IOException {
        Node f = resolveHardlink(file);
        if (f.entry().kind() != PxarEntry.Kind.FILE) {
            throw new IllegalArgumentException("not a regular file: " + f.entry().displayPath());
        }
        if (f.entry().hasPayloadRef()) {
            return -1;
        }
        PxarDecoder d = PxarDecoder.entryAt(src.streamFrom(f.offset()), f.offset(), parentOf(f.entry().path()));
        d.next();
        return d.position();
    }

    /**
     * Where a split archive file's contents start in the payload stream ({@code .ppxar}): after
     * the PAYLOAD item header at the entry's reference, which is checked ({@code docs/pxar.md}).
     *
     * @throws PxarFormatException if there is no PAYLOAD of the entry's size at the reference
     */
    public static long payloadOffset(ReadAt payload, PxarEntry e) throws IOException {
        byte[] h = payload.readFully(e.payloadRef(), PxarFormat.HEADER_SIZE);
        if (ItemReader.getLong(h, 0) != PxarFormat.PAYLOAD || ItemReader.getLong(h, 8) != PxarFormat.HEADER_SIZE + e.fileSize()) {
            throw new PxarFormatException(e.payloadRef(), "payload stream: no PAYLOAD of " + e.fileSize()
                    + " bytes for " + e.displayPath());
        }
        return e.payloadRef() + PxarFormat.HEADER_SIZE;
    }

    private Node nodeAt(Node dir, long offset, long size) throws IOException {
        PxarDecoder d = PxarDecoder.entryAt(src.streamFrom(offset), offset, dir.entry().path());
        return new Node(d.next(), offset, size);
    }

    private static byte[] parentOf(byte[] path) {
        int i = path.length - 1;
        while (i >= 0 && path[i] != '/') {
            i--;
        }
        return i < 0 ? new byte[0] : Arrays.copyOf(path, i);
    }

    /** A directory's goodbye table: item arrays in table (tree) order and the table's start. */
    private record Table(long start, int n, long[] hashes, long[] offsets, long[] sizes) {}

    private Table table(Node dir) throws IOException {
        if (!dir.isDirectory()) {
            throw new IllegalArgumentException("not a directory: " + dir.entry().displayPath());
        }
        long end = dir.offset() + dir.size();
        byte[] tail = src.readFully(end - PxarFormat.GOODBYE_ITEM_SIZE, PxarFormat.GOODBYE_ITEM_SIZE);
        long gsize = ItemReader.getLong(tail, 16);
        if (ItemReader.getLong(tail, 0) != PxarFormat.GOODBYE_TAIL_MARKER || gsize < 40 || gsize > dir.size()
                || (gsize - PxarFormat.HEADER_SIZE) % PxarFormat.GOODBYE_ITEM_SIZE != 0) {
            throw new PxarFormatException(end - 24, "bad goodbye table tail of " + dir.entry().displayPath());
        }
        long start = end - gsize;
        int n = (int) ((gsize - PxarFormat.HEADER_SIZE) / PxarFormat.GOODBYE_ITEM_SIZE) - 1;
        byte[] items = src.readFully(start + PxarFormat.HEADER_SIZE, n * PxarFormat.GOODBYE_ITEM_SIZE);
        long[] h = new long[n];
        long[] o = new long[n];
        long[] s = new long[n];
        for (int i = 0; i < n; i++) {
            h[i] = ItemReader.getLong(items, i * 24);
            o[i] = ItemReader.getLong(items, i * 24 + 8);
            s[i] = ItemReader.getLong(items, i * 24 + 16);
            if (o[i] <= 0 || o[i] > start - dir.offset()) {
                throw new PxarFormatException(start + 16 + i * 24L, "goodbye item points outside its directory");
            }
        }
        return new Table(start, n, h, o, s);
    }

    /** All slots of the binary search tree holding {@code hash} (more than one on a collision). */
    private static void search(Table t, int i, long hash, List<Integer> out) {
        while (i < t.n) {
            int c = Long.compareUnsigned(hash, t.hashes[i]);
            if (c == 0) {
                out.add(i);
                search(t, 2 * i + 1, hash, out);
                i = 2 * i + 2;
            } else {
                i = c < 0 ? 2 * i + 1 : 2 * i + 2;
            }
        }
    }
}
