package org.jpbs.core.pxar.catalog;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jpbs.core.pxar.ReadAt;

/**
 * Reads a {@code catalog.pcat1} ({@code docs/pxar.md#catalog}): the root directory, any
 * directory's entries from its table offset, and a path's entry. Only the tables asked for
 * are read, so over a {@link ReadAt} that loads chunks on demand (an index of the catalog) a
 * listing touches a few chunks, not the whole catalog. Thread-safe if the source is.
 */
public final class CatalogReader {
    private final ReadAt data;
    private final long size;
    private final long root;

    /** A catalog held in memory. */
    public CatalogReader(byte[] data) throws IOException {
        this(ReadAt.of(data));
    }

    /**
     * A catalog read through {@code data}.
     *
     * @throws CatalogFormatException if the magic or the root offset is wrong
     * @throws IOException if {@code data} cannot be read
     */
    public CatalogReader(ReadAt data) throws IOException {
        this.data = data;
        this.size = data.size();
        if (size < 16 || !Arrays.equals(data.readFully(0, 8), CatalogWriter.MAGIC)) {
            throw new CatalogFormatException("not a catalog (bad magic)");
        }
        byte[] tail = data.readFully(size - 8, 8);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v |= (tail[i] & 0xffL) << (8 * i);
        }
        if (v < 8 || v >= size - 8) {
            throw new CatalogFormatException("root table offset " + v + " out of range");
        }
        this.root = v;
    }

    /** The root pseudo-directory (its entries are the archives, e.g. {@code root.pxar.didx}). */
    public CatalogEntry root() {
        return new CatalogEntry('d', new byte[0], root, 0, 0);
    }

    /** The entries of directory {@code dir}, in archive order. */
    public List<CatalogEntry> list(CatalogEntry dir) throws IOException {
        if (!dir.isDirectory()) {
            throw new IllegalArgumentException("not a directory: " + dir.displayName());
        }
        long start = dir.start();
        if (start < 8 || start >= size - 8) {
            throw new CatalogFormatException("directory table offset " + start + " out of range");
        }
        byte[] head = data.readFully(start, (int) Math.min(10, size - 8 - start));
        CatalogVarint.Reader r = new CatalogVarint.Reader(head, 0, head.length);
        long len = r.readUnsigned();
        long tableStart = start + r.position();
        if (len < 1 || len > size - 8 - tableStart) {
            throw new CatalogFormatException("directory table at " + start + " runs past the end");
        }
        byte[] table = data.readFully(tableStart, (int) len);
        CatalogVarint.Reader t = new CatalogVarint.Reader(table, 0, table.length);
        long count = t.readUnsigned();
        List<CatalogEntry> out = new ArrayList<>();
        for (long i = 0; i < count; i++) {
            char type = (char) t.readByte();
            long nameLen = t.readUnsigned();
            if (nameLen >= 4096) {
                throw new CatalogFormatException("entry name of " + nameLen + " bytes at byte " + (tableStart + t.position()));
            }
            byte[] name = t.readBytes((int) nameLen);
            switch (type) {
                case 'd' -> {
                    long back = t.readUnsigned();
                    if (back <= 0 || back > start) {
                        throw new CatalogFormatException("directory offset out of range at byte "
                                + (tableStart + t.position()));
                    }
                    out.add(new CatalogEntry(type, name, start - back, 0, 0));
                }
                case 'f' -> out.add(new CatalogEntry(type, name, 0, t.readUnsigned(), t.readSigned()));
                case 'l', 'h', 'b', 'c', 'p', 's' -> out.add(new CatalogEntry(type, name, 0, 0, 0));
                default -> throw new CatalogFormatException("unknown entry type " + (int) type + " at byte "
                        + (tableStart + t.position()));
            }
        }
        if (!t.atEnd()) {
            throw new CatalogFormatException("directory table at " + start + " has trailing bytes");
        }
        return out;
    }

    /**
     * The entry at {@code path} as PBS's catalog reader looks it up: {@code /} alone is the
     * root; otherwise a leading slash is dropped and every component (the first one names the
     * archive, {@code root.pxar.didx}) must exist in its parent directory.
     *
     * @throws CatalogLookupException {@code path "…" not found in catalog}, or a component
     *         below something that is not a directory
     */
    public CatalogEntry lookup(byte[] path) throws IOException {
        CatalogEntry cur = root();
        if (path.length == 1 && path[0] == '/') {
            return cur;
        }
        int start = path.length > 0 && path[0] == '/' ? 1 : 0;
        while (true) {
            int end = start;
            while (end < path.length && path[end] != '/') {
                end++;
            }
            byte[] comp = Arrays.copyOfRange(path, start, end);
            if (!cur.isDirectory()) {
                throw new CatalogLookupException("parent is not a directory - internal error");
            }
            CatalogEntry found = null;
            for (CatalogEntry e : list(cur)) {
                if (Arrays.equals(e.name(), comp)) {
                    found = e;
                    break;
                }
            }
            if (found == null) {
                throw new CatalogLookupException("path " + CatalogDump.quote(
                        new String(path, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8))
                        + " not found in catalog");
            }
            cur = found;
            if (end >= path.length) {
                return cur;
            }
            start = end + 1;
        }
    }
}
