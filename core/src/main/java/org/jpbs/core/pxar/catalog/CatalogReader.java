package org.jpbs.core.pxar.catalog;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a whole {@code catalog.pcat1} held in memory ({@code docs/pxar.md#catalog}): the root
 * directory, and any directory's entries from its table offset.
 */
public final class CatalogReader {
    private final byte[] data;

    /** @throws CatalogFormatException if the magic or the root offset is wrong */
    public CatalogReader(byte[] data) throws CatalogFormatException {
        if (data.length < 16 || !Arrays.equals(data, 0, 8, CatalogWriter.MAGIC, 0, 8)) {
            throw new CatalogFormatException("not a catalog (bad magic)");
        }
        this.data = data;
        long root = rootOffset();
        if (root < 8 || root >= data.length - 8) {
            throw new CatalogFormatException("root table offset " + root + " out of range");
        }
    }

    private long rootOffset() {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v |= (data[data.length - 8 + i] & 0xffL) << (8 * i);
        }
        return v;
    }

    /** The root pseudo-directory (its entries are the archives, e.g. {@code root.pxar.didx}). */
    public CatalogEntry root() {
        return new CatalogEntry('d', new byte[0], rootOffset(), 0, 0);
    }

    /** The entries of directory {@code dir}, in archive order. */
    public List<CatalogEntry> list(CatalogEntry dir) throws CatalogFormatException {
        if (!dir.isDirectory()) {
            throw new IllegalArgumentException("not a directory: " + dir.displayName());
        }
        long start = dir.start();
        if (start < 8 || start >= data.length - 8) {
            throw new CatalogFormatException("directory table offset " + start + " out of range");
        }
        CatalogVarint.Reader r = new CatalogVarint.Reader(data, (int) start, data.length - 8);
        long len = r.readUnsigned();
        int tableStart = r.position();
        if (len > data.length - 8 - tableStart) {
            throw new CatalogFormatException("directory table at " + start + " runs past the end");
        }
        CatalogVarint.Reader t = new CatalogVarint.Reader(data, tableStart, tableStart + (int) len);
        long count = t.readUnsigned();
        List<CatalogEntry> out = new ArrayList<>();
        for (long i = 0; i < count; i++) {
            char type = (char) t.readByte();
            long nameLen = t.readUnsigned();
            if (nameLen >= 4096) {
                throw new CatalogFormatException("entry name of " + nameLen + " bytes at byte " + t.position());
            }
            byte[] name = t.readBytes((int) nameLen);
            switch (type) {
                case 'd' -> {
                    long back = t.readUnsigned();
                    if (back <= 0 || back > start) {
                        throw new CatalogFormatException("directory offset out of range at byte " + t.position());
                    }
                    out.add(new CatalogEntry(type, name, start - back, 0, 0));
                }
                case 'f' -> out.add(new CatalogEntry(type, name, 0, t.readUnsigned(), t.readSigned()));
                case 'l', 'h', 'b', 'c', 'p', 's' -> out.add(new CatalogEntry(type, name, 0, 0, 0));
                default -> throw new CatalogFormatException("unknown entry type " + (int) type + " at byte " + t.position());
            }
        }
        if (!t.atEnd()) {
            throw new CatalogFormatException("directory table at " + start + " has trailing bytes");
        }
        return out;
    }
}
