package org.jpbs.client.pxar.fs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.jpbs.core.pxar.Metadata;
import org.jpbs.core.pxar.PxarEncoder;
import org.jpbs.core.pxar.PxarFormat;
import org.jpbs.core.pxar.Stat;
import org.jpbs.core.pxar.catalog.CatalogWriter;

/**
 * Where the {@link TreeArchiver}'s entries go: the encoder and the catalog, in archive order.
 * Regular files are read here (a file that grows or shrinks while read is cut or padded, with
 * a warning); a further name of an inode becomes a hardlink. With a {@link PreviousArchive}
 * (metadata change detection, {@code docs/pxar.md#metadata-change-detection}) unchanged files
 * go to the {@link Lookahead} unread and every entry is written in its turn after them.
 */
final class EntryOutput implements AutoCloseable {
    private final Sys sys;
    private final PxarEncoder enc;
    private final CatalogWriter catalog;
    private final PreviousArchive previous;
    private final Lookahead lookahead;
    private final Consumer<String> warnings;
    private final LongConsumer boundaries;
    private final TreeArchiver.Counters counters;
    private final DirHandle root;
    private final Map<Long, Map<Long, Object[]>> hardlinks = new HashMap<>();
    private final byte[] copy = new byte[1 << 20];

    /**
     * @param root     the tree's root (held by the caller until this is closed): held files read
     *                 after all are opened again below it
     * @param catalog  receives the entries, or null
     * @param previous   the previous split archive to reuse unchanged files from, or null
     * @param boundaries told the payload offset where each file read starts (split archives), or null
     */
    EntryOutput(Sys sys, DirHandle root, PxarEncoder enc, CatalogWriter catalog, PreviousArchive previous, LongConsumer boundaries,
            Consumer<String> warnings, TreeArchiver.Counters counters) {
        this.boundaries = boundaries;
        this.sys = sys;
        this.root = root;
        this.enc = enc;
        this.catalog = catalog;
        this.previous = previous;
        this.warnings = warnings;
        this.counters = counters;
        this.lookahead = previous == null ? null : new Lookahead(previous, heldWriter());
    }

    /** Writes an entry now, or after the unchanged files the look-ahead holds. */
    void step(Lookahead.Step s) throws IOException {
        if (lookahead != null) {
            lookahead.step(s);
        } else {
            s.run();
        }
    }

    void symlink(byte[] name, Metadata meta, byte[] target) throws IOException {
        step(() -> {
            if (catalog != null) {
                catalog.addOther('l', name);
            }
            enc.addSymlink(name, meta, target);
        });
    }

    void device(byte[] name, Metadata meta, boolean block, long major, long minor) throws IOException {
        step(() -> {
            if (catalog != null) {
                catalog.addOther(block ? 'b' : 'c', name);
            }
            enc.addDevice(name, meta, major, minor);
        });
    }

    void special(byte[] name, Metadata meta, boolean fifo) throws IOException {
        step(() -> {
            if (catalog != null) {
                catalog.addOther(fifo ? 'p' : 's', name);
            }
            enc.addSpecial(name, meta);
        });
    }

    void beginDirectory(byte[] name, Metadata meta) throws IOException {
        step(() -> {
            if (catalog != null) {
                catalog.startDirectory(name);
            }
            enc.beginDirectory(name, meta);
        });
    }

    void endDirectory() throws IOException {
        step(() -> {
            enc.endDirectory();
            if (catalog != null) {
                catalog.endDirectory();
            }
        });
    }

    /** The root's {@code .pxarexclude-cli} with {@code data}: mode 0600, owner 0:0, mtime 0. */
    void cliExcludes(byte[] name, byte[] data) throws IOException {
        step(() -> {
            if (catalog != null) {
                catalog.addFile(name, data.length, 0);
            }
            enc.beginFile(name, Metadata.of(new Stat(0100600, 0, 0, 0, 0, 0)), data.length);
            enc.write(data, 0, data.length);
            enc.endFile();
        });
    }

    /**
     * Adds a regular file of {@code dir} read by {@link EntryRead} (contents possibly read ahead;
     * in metadata mode closed, and opened again here if it has to be read).
     */
    void file(EntryRead r, DirHandle dir) throws IOException {
        byte[] name = r.name;
        byte[] path = r.path;
        Sys.FileStat s = r.stat;
        Metadata meta = r.meta;
        long[] linkOffset = null;
        if (s.nlink > 1) {
            Map<Long, Object[]> inodes = hardlinks.computeIfAbsent(s.dev(), k -> new HashMap<>());
            Object[] first = inodes.get(s.ino);
            if (first != null) {
                step(() -> {
                    if (catalog != null) {
                        catalog.addOther('h', name);
                    }
                    enc.addHardlink(name, (byte[]) first[0], ((long[]) first[1])[0]);
                });
                return;
            }
            linkOffset = new long[] {-1};
            inodes.put(s.ino, new Object[] {path, linkOffset});
        }
        if (lookahead != null) {
            PreviousArchive.File p = previous.file(path);
            if (p != null && p.matches(meta, s.size)) {
                long from = p.payloadOffset();
                lookahead.hold(new Lookahead.Held(name, path, s, meta, from, linkOffset), from,
                        from + PxarFormat.HEADER_SIZE + s.size);
                return;
            }
            lookahead.flush();
        }
        if (r.fd >= 0 || r.complete) {
            read(r.fd, name, path, s, meta, linkOffset, r.data, r.length, r.complete);
            return;
        }
        int fd = reopened(Reopen.in(sys, dir.fd, name, s), path);
        try {
            read(fd, name, path, s, meta, linkOffset, null, 0, false);
        } finally {
            if (fd >= 0) {
                sys.close(fd);
            }
        }
    }

    /** {@code fd}, or -1 after a warning if the file could not be opened again (it is padded with zeros). */
    private int reopened(int fd, byte[] path) {
        if (fd < 0) {
            warnings.accept("warning: file vanished while reading: " + show(path) + ", file will be padded with zeros!");
        }
        return fd;
    }

    /** Writes what the look-ahead still holds and ends the archive. */
    void finish() throws IOException {
        if (lookahead != null) {
            lookahead.flush();
        }
        enc.finish();
    }

    /** Closes the descriptors of files still held (after a failure). */
    @Override
    public void close() {
        if (lookahead != null) {
            lookahead.close();
        }
    }

    /**
     * Encodes a regular file: {@code head[0, headLength)} is its start read ahead ({@code complete}:
     * all of it), the rest is read from {@code fd}.
     */
    private void read(int fd, byte[] name, byte[] path, Sys.FileStat s, Metadata meta, long[] linkOffset,
            byte[] head, int headLength, boolean complete) throws IOException {
        if (catalog != null) {
            catalog.addFile(name, s.size, s.mtimeSecs);
        }
        if (boundaries != null) {
            boundaries.accept(enc.payloadPosition());
        }
        long offset = enc.beginFile(name, meta, s.size);
        counters.filesRead++;
        long remaining = s.size;
        if (headLength > 0) {
            enc.write(head, 0, headLength);
            counters.bytesRead += headLength;
            remaining -= headLength;
        }
        while (remaining > 0 && !complete && fd >= 0) {
            int got = sys.read(fd, copy, 0, copy.length);
            if (got == 0) {
                break;
            }
            counters.bytesRead += got;
            if (got > remaining) {
                warnings.accept("warning: file size increased while reading: " + show(path) + ", file will be truncated!");
                got = (int) remaining;
            }
            enc.write(copy, 0, got);
            remaining -= got;
        }
        if (remaining > 0) {
            if (fd >= 0) {
                warnings.accept("warning: file size shrunk while reading: " + show(path) + ", file will be padded with zeros!");
            }
            Arrays.fill(copy, (byte) 0);
            while (remaining > 0) {
                int k = (int) Math.min(remaining, copy.length);
                enc.write(copy, 0, k);
                remaining -= k;
            }
        }
        enc.endFile();
        if (linkOffset != null) {
            linkOffset[0] = offset;
        }
    }

    /** How held files are written: by reference to reused payload, or read after all. */
    private Lookahead.Writer heldWriter() {
        return new Lookahead.Writer() {
            @Override
            public void read(Lookahead.Held f) throws IOException {
                boolean empty = f.stat().size == 0;
                int fd = empty ? -1 : reopened(Reopen.below(sys, root.fd, f.path(), f.stat()), f.path());
                try {
                    EntryOutput.this.read(fd, f.name(), f.path(), f.stat(), f.metadata(), f.linkOffset(), null, 0,
                            empty);
                } finally {
                    if (fd >= 0) {
                        sys.close(fd);
                    }
                }
            }

            @Override
            public void reference(Lookahead.Held f, long payloadOffset) throws IOException {
                if (catalog != null) {
                    catalog.addFile(f.name(), f.stat().size, f.stat().mtimeSecs);
                }
                long offset = enc.addFileRef(f.name(), f.metadata(), f.stat().size, payloadOffset);
                if (f.linkOffset() != null) {
                    f.linkOffset()[0] = offset;
                }
                counters.filesReused++;
                counters.bytesReused += f.stat().size;
            }

            @Override
            public void appended(long bytes) {
                enc.payloadAppended(bytes);
            }
        };
    }

    static String show(byte[] path) {
        return "\"/" + new String(path, StandardCharsets.UTF_8) + "\"";
    }
}
