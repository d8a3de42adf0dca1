package org.jpbs.core.pxar.catalog;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes {@code catalog.pcat1} as the PBS client does ({@code docs/pxar.md#catalog}): the
 * magic, each directory's table when the directory ends (children before parents), the root
 * table last, then the root table's offset as u64 LE. The backup client wraps each archive in
 * a directory named after it ({@code root.pxar.didx}). Entries keep the order they are added
 * in (the archive order). Not thread-safe.
 */
public final class CatalogWriter {
    /** SHA-256("Proxmox Backup Catalog file v1.0")[0..8]. */
    public static final byte[] MAGIC = {(byte) 145, (byte) 253, 96, (byte) 249, (byte) 196, 103, 88, (byte) 213};

    private final OutputStream out;
    private final ArrayDeque<Dir> stack = new ArrayDeque<>();
    private long pos;

    private static final class Dir {
        final byte[] name;
        final List<CatalogEntry> entries = new ArrayList<>();

        Dir(byte[] name) {
            this.name = name;
        }
    }

    public CatalogWriter(OutputStream out) throws IOException {
        this.out = out;
        stack.push(new Dir(new byte[] {'/'}));
        write(MAGIC);
    }

    public void startDirectory(byte[] name) {
        stack.push(new Dir(name));
    }

    public void endDirectory() throws IOException {
        if (stack.size() < 2) {
            throw new IllegalStateException("catalog: endDirectory at the root");
        }
        Dir d = stack.pop();
        long start = pos;
        write(encode(d, start));
        stack.peek().entries.add(new CatalogEntry('d', d.name, start, 0, 0));
    }

    public void addFile(byte[] name, long size, long mtime) {
        stack.peek().entries.add(new CatalogEntry('f', name, 0, size, mtime));
    }

    /** A symlink (l), hardlink (h), block (b) or char device (c), fifo (p) or socket (s). */
    public void addOther(char type, byte[] name) {
        if ("lhbcps".indexOf(type) < 0) {
            throw new IllegalArgumentException("catalog type " + type);
        }
        stack.peek().entries.add(new CatalogEntry(type, name, 0, 0, 0));
    }

    /** Writes the root table and its offset, and flushes. */
    public void finish() throws IOException {
        if (stack.size() != 1) {
            throw new IllegalStateException("catalog: " + (stack.size() - 1) + " directories not ended");
        }
        long start = pos;
        write(encode(stack.pop(), start));
        byte[] tail = new byte[8];
        for (int i = 0; i < 8; i++) {
            tail[i] = (byte) (start >>> (8 * i));
        }
        write(tail);
        out.flush();
    }

    private static byte[] encode(Dir d, long start) {
        ByteArrayOutputStream table = new ByteArrayOutputStream();
        CatalogVarint.writeUnsigned(table, d.entries.size());
        for (CatalogEntry e : d.entries) {
            table.write(e.type());
            CatalogVarint.writeUnsigned(table, e.name().length);
            table.writeBytes(e.name());
            if (e.type() == 'd') {
                CatalogVarint.writeUnsigned(table, start - e.start());
            } else if (e.type() == 'f') {
                CatalogVarint.writeUnsigned(table, e.size());
                CatalogVarint.writeSigned(table, e.mtime());
            }
        }
        ByteArrayOutputStream data = new ByteArrayOutputStream(table.size() + 10);
        CatalogVarint.writeUnsigned(data, table.size());
        data.writeBytes(table.toByteArray());
        return data.toByteArray();
    }

    private void write(byte[] b) throws IOException {
        out.write(b);
        pos += b.length;
    }
}
