package org.jpbs.client.pxar.fs;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.jpbs.core.pxar.Metadata;
import org.jpbs.core.pxar.PxarEncoder;
import org.jpbs.core.pxar.PxarFlags;
import org.jpbs.core.pxar.Stat;
import org.jpbs.core.pxar.catalog.CatalogWriter;
import org.jpbs.core.pxar.pattern.MatchEntry;

/**
 * Archives a directory tree as a pxar stream, as {@code pxar create} / the PBS client do
 * ({@code docs/pxar.md#reading-a-directory-tree}): children sorted by raw name bytes, regular
 * files' and directories' metadata read through their open descriptor, a second name of an
 * inode written as a hardlink, the same file-system-dependent feature set. Files that vanish
 * are skipped with a warning; a file that shrinks while read is padded with zeros and one that
 * grows is cut at the size stat gave, both with a warning, so the archive stays consistent.
 */
public final class TreeArchiver {
    /** PBS's default limit on entries held in memory ({@code --entries-max}). */
    public static final long DEFAULT_ENTRIES_MAX = 1024 * 1024;

    /**
     * Options as the PBS client has them.
     *
     * @param entriesMax      most entries listed at once (the sum over the open directories)
     * @param devices         st_dev values whose contents are archived (null = all file systems);
     *                        the root's device is always included
     * @param skipLostAndFound leave out entries named {@code lost+found}
     * @param patterns        exclude patterns from the command line ({@code --exclude}); they are
     *                        stored in the archive as {@code /.pxarexclude-cli}
     */
    public record Options(long entriesMax, Set<Long> devices, boolean skipLostAndFound, List<MatchEntry> patterns) {
        public Options {
            patterns = List.copyOf(patterns);
        }

        /** Everything, one file system not enforced, as {@code pxar create} does. */
        public static Options defaults() {
            return new Options(DEFAULT_ENTRIES_MAX, null, false, List.of());
        }
    }

    private final Sys sys = new Sys();
    private final Options options;
    private final Consumer<String> warnings;
    private final CatalogWriter catalog;
    private EntryOutput output;
    private PreviousArchive previous;
    private LongConsumer boundaries;
    private final Counters counters = new Counters();
    private int readers = READERS;
    private int window = WINDOW;
    private int budget = BUDGET;
    private int ahead = AHEAD;

    /**
     * @param catalog  receives the entries as they are archived (the caller starts and ends
     *                 the archive's own catalog directory), or null
     * @param warnings receives one line per skipped or changed file
     */
    public TreeArchiver(Options options, CatalogWriter catalog, Consumer<String> warnings) {
        this.options = Objects.requireNonNull(options, "options");
        this.catalog = catalog;
        this.warnings = Objects.requireNonNull(warnings, "warnings");
    }

    /**
     * What an archive run read and reused: regular files whose contents were read and their
     * bytes, and (metadata mode) files whose payload was taken over from the previous snapshot.
     */
    public static final class Counters {
        long filesRead;
        long bytesRead;
        long filesReused;
        long bytesReused;

        public long filesRead() {
            return filesRead;
        }

        public long bytesRead() {
            return bytesRead;
        }

        public long filesReused() {
            return filesReused;
        }

        public long bytesReused() {
            return bytesReused;
        }
    }

    /** The counters of the archive written (or being written). */
    public Counters counters() {
        return counters;
    }

    /**
     * Makes {@link #archive(Path, OutputStream, OutputStream)} skip reading unchanged files
     * ({@code docs/pxar.md#metadata-change-detection}): a file whose size and metadata equal
     * those of the same path in {@code previous} takes over its payload from there.
     */
    public TreeArchiver reusing(PreviousArchive previous) {
        this.previous = previous;
        return this;
    }

    /**
     * Has {@code boundaries} told the payload offset where each file read is about to start in a
     * split archive's payload stream, a good place for a chunk boundary (PBS's payload chunker).
     */
    public TreeArchiver suggestingBoundaries(LongConsumer boundaries) {
        this.boundaries = boundaries;
        return this;
    }

    /**
     * Sets the read-ahead: {@code readers} threads, at most {@code window} entries and
     * {@code budget} content bytes ahead of the encoder, at most {@code ahead} bytes of one file
     * (0: contents are read by the encoder only).
     */
    TreeArchiver readAhead(int readers, int window, int budget, int ahead) {
        if (readers < 1 || window < 1 || budget < ahead || ahead < 0) {
            throw new IllegalArgumentException("bad read-ahead settings");
        }
        this.readers = readers;
        this.window = window;
        this.budget = budget;
        this.ahead = ahead;
        return this;
    }

    /** Writes the pxar stream of {@code root} to {@code out} (not closed). */
    public void archive(Path root, OutputStream out) throws IOException {
        archive(root, out, null);
    }

    /**
     * Writes {@code root} as a split archive ({@code docs/pxar.md#split-archives}) when
     * {@code payload} is non-null: metadata to {@code out}, file contents to {@code payload}.
     *
     * <p>The tree is walked and read ahead of the encoder ({@link TreeWalker}, {@link ReadAheadPool}):
     * the entries' stat, metadata and (unless unchanged files may be reused) contents are read on
     * {@value #READERS} threads, at most {@value #WINDOW} entries and {@value #BUDGET} bytes ahead
     * (of one file at most {@value #AHEAD}), while this thread encodes them in archive order.
     */
    public void archive(Path root, OutputStream out, OutputStream payload) throws IOException {
        byte[] rootPath = root.toString().getBytes(StandardCharsets.UTF_8);
        int fd;
        try {
            fd = sys.openat(Libc.AT_FDCWD, rootPath, Libc.O_RDONLY | Libc.O_DIRECTORY | Libc.O_CLOEXEC, 0);
        } catch (SysException e) {
            sys.close();
            throw new IOException("cannot open directory " + root + ": " + Libc.strerror(e.errno()), e);
        }
        boolean reuse = payload != null && previous != null;
        TreeWalker walker = null;
        DirHandle rootDir = null;
        try (ReadAheadPool pool = new ReadAheadPool(readers, budget)) {
            try {
                long magic = sys.fsType(fd);
                if (PxarFlags.isVirtual(magic)) {
                    throw new IOException("refusing to back up a virtual file system: " + root);
                }
                long features = PxarFlags.featuresOf(magic);
                Sys.FileStat st = new Sys.FileStat();
                sys.statx(fd, new byte[0], Libc.AT_EMPTY_PATH, st);
                Set<Long> devices = null;
                if (options.devices() != null) {
                    devices = new java.util.HashSet<>(options.devices());
                    devices.add(st.dev());
                }
                Metadata meta = metadata(sys, fd, st, magic, features, root.toString());
                rootDir = new DirHandle(fd, new byte[0], magic, features);
                fd = -1; // the walker and this method release it
                output = new EntryOutput(sys, rootDir, new PxarEncoder(out, payload, meta), catalog,
                        reuse ? previous : null, payload != null ? boundaries : null, warnings, counters);
                // files that may be reused unread are closed once their metadata is read
                walker = new TreeWalker(options, devices, pool, reuse ? EntryRead.METADATA_ONLY : ahead, window);
                walker.start(rootDir.retain(), st.dev());
                consume(walker, pool);
                output.finish();
            } finally {
                if (walker != null) {
                    walker.stop(sys);
                }
                if (output != null) {
                    output.close();
                }
                if (rootDir != null) {
                    rootDir.release(sys);
                }
                if (fd >= 0) {
                    sys.close(fd);
                }
            }
        } finally {
            sys.close();
        }
    }

    /** Threads reading entries ahead of the encoder. */
    static final int READERS = 4;
    /** Most entries listed and handed on ahead of the encoder (also bounds the open descriptors). */
    static final int WINDOW = 512;
    /** Most content bytes read ahead of the encoder. */
    static final int BUDGET = 64 << 20;
    /** Most content bytes of one file read ahead; the encoder reads the rest. */
    static final int AHEAD = 8 << 20;

    /** Encodes the walker's items in order. */
    private void consume(TreeWalker walker, ReadAheadPool pool) throws IOException {
        while (true) {
            switch (walker.take()) {
                case TreeWalker.DirStart d -> output.beginDirectory(d.name(), d.meta());
                case TreeWalker.DirEnd d -> output.endDirectory();
                case TreeWalker.Note n -> warnings.accept(n.text());
                case TreeWalker.CliExcludes c -> output.cliExcludes(ExcludeFile.CLI_NAME, c.content());
                case TreeWalker.Child c -> child(c, pool);
                case TreeWalker.Failed f -> {
                    if (f.error() instanceof IOException io) {
                        throw io;
                    }
                    throw (RuntimeException) f.error();
                }
                case TreeWalker.End e -> {
                    return;
                }
            }
        }
    }

    private void child(TreeWalker.Child c, ReadAheadPool pool) throws IOException {
        EntryRead r;
        try {
            r = c.read().join();
        } catch (java.util.concurrent.CompletionException e) {
            c.dir().release(sys);
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw e;
        }
        try {
            for (String w : r.warnings) {
                warnings.accept(w);
            }
            if (r.skip) {
                return;
            }
            switch (r.stat.type()) {
                case 0100000 -> output.file(r, c.dir());
                case 0120000 -> output.symlink(r.name, r.meta, r.linkTarget);
                case 0020000, 0060000 -> output.device(r.name, r.meta, r.stat.type() == 0060000, r.stat.rdevMajor,
                        r.stat.rdevMinor);
                default -> output.special(r.name, r.meta, r.stat.type() == 0010000);
            }
        } finally {
            r.discard(sys, pool.budget);
            c.dir().release(sys);
        }
    }

    /** The metadata of an open regular file or directory, read as the file system {@code magic} allows. */
    static Metadata metadata(Sys sys, int fd, Sys.FileStat s, long magic, long features, String where)
            throws IOException {
        MetadataReader r = new MetadataReader(sys, fd, features, magic);
        Stat stat = new Stat(Integer.toUnsignedLong(s.mode), 0, s.uid, s.gid, s.mtimeSecs, s.mtimeNanos);
        try {
            return r.read(stat);
        } catch (SysException e) {
            throw new IOException(where + ": " + e.getMessage(), e);
        }
    }
}
