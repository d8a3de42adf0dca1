package org.jpbs.client.pxar.fs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.jpbs.core.pxar.EntrySource;
import org.jpbs.core.pxar.Metadata;
import org.jpbs.core.pxar.PxarAccessor;
import org.jpbs.core.pxar.PxarEntry;
import org.jpbs.core.pxar.PxarFlags;
import org.jpbs.core.pxar.ReadAt;
import org.jpbs.core.pxar.pattern.MatchEntry;

/**
 * Writes a decoded pxar stream back to a directory ({@code docs/pxar.md#extracting}) with
 * all its metadata: owners (as root; otherwise silently what the user may), modes, times,
 * xattrs, ACLs, file capabilities, chattr flags, hardlinks, devices, fifos and sockets. File
 * contents are written sparse: blocks of zeros become holes. A directory's own metadata is
 * applied when its last child is written, so its time and flags stick. With writer threads
 * ({@link #writers}), files up to {@link FileWriters#MAX_FILE} are written by
 * {@link FileWriters} while the stream is decoded on; failures are raised for the earliest
 * entry, as if written in order.
 */
public final class TreeExtractor {
    /**
     * @param overwrite       replace existing files (directories are always reused)
     * @param ignoreOwnership do not chown
     * @param ignoreAcls      do not restore ACLs
     * @param ignoreXattrs    do not restore xattrs and file capabilities
     * @param patterns        restore only what these match ({@code --pattern}: include
     *                        patterns, {@code !} for excludes; an entry no pattern matches
     *                        follows its directory); empty = everything
     */
    public record Options(boolean overwrite, boolean ignoreOwnership, boolean ignoreAcls, boolean ignoreXattrs,
            List<MatchEntry> patterns) {
        public Options {
            patterns = List.copyOf(patterns);
        }

        public static Options defaults() {
            return new Options(false, false, false, false, List.of());
        }
    }

    /** A directory on the way down: created (fd >= 0) when it matched or a descendant is restored. */
    private static final class Dir {
        final byte[] name;
        final Metadata metadata;
        final boolean matched;
        int fd = -1;
        /** What the extractor knows about this directory when it created it (null: it existed). */
        MetadataWriter.Fresh fresh;
        /** The group an entry created in it gets (-1: unknown), and whether it inherits no chattr flag. */
        int childGid = -1;
        boolean childNoFlags;
        /** Its files handed to the writers and not yet written. */
        final FileWriters.Pending pending = new FileWriters.Pending();

        Dir(byte[] name, Metadata metadata, boolean matched) {
            this.name = name;
            this.metadata = metadata;
            this.matched = matched;
        }
    }

    private final Sys sys = new Sys();
    private final Options options;
    private final Consumer<String> warnings;
    private final MetadataWriter meta;
    private final ContentWriter content = new ContentWriter(sys);
    private final ArrayDeque<Dir> dirs = new ArrayDeque<>();
    /** Directories whose end was read while writers still had their files, in end order. */
    private final List<Dir> ended = new ArrayList<>();
    private int writerThreads = defaultWriters();
    private FileWriters writers;
    private long seq;
    /** Entries below the root that were restored (directories created for themselves included). */
    private long restored;
    private final int euid;
    private final int egid;
    private ReadAt payload;

    public TreeExtractor(Options options, Consumer<String> warnings) {
        this.options = Objects.requireNonNull(options, "options");
        Objects.requireNonNull(warnings, "warnings");
        this.warnings = line -> {
            synchronized (this) {
                warnings.accept(line);
            }
        };
        this.meta = new MetadataWriter(sys, options, warnings);
        int[] ids = Sys.effectiveIds();
        this.euid = ids[0];
        this.egid = ids[1];
    }

    /**
     * The system property {@code jpbs.extract.writers} if set, else none: on the two shared cores
     * measured, handing each file to a writer cost more CPU than it took off the decoding thread
     * ({@code docs/pxar.md#benchmark}).
     */
    private static int defaultWriters() {
        return writersFrom(System.getProperty(WRITERS_PROPERTY));
    }

    /** System property: writer threads of a restore. */
    static final String WRITERS_PROPERTY = "jpbs.extract.writers";
    /** The most writer threads {@value #WRITERS_PROPERTY} may ask for. */
    static final int MAX_WRITERS = 64;

    /**
     * The writer threads {@code value} of {@value #WRITERS_PROPERTY} asks for: none if unset,
     * else a whole number from 0 to {@value #MAX_WRITERS} (a typo was silently 0, a huge number
     * ran the JVM out of memory).
     *
     * @throws IllegalArgumentException naming the property and the value otherwise
     */
    static int writersFrom(String value) {
        if (value == null || value.isBlank()) {
            return 0;
        }
        try {
            int n = Integer.parseInt(value.strip());
            if (n >= 0 && n <= MAX_WRITERS) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new IllegalArgumentException("system property " + WRITERS_PROPERTY + ": expected a number of writer threads from 0 to "
                + MAX_WRITERS + ", got '" + value + "'");
    }

    /** How many threads write files (0: all on the caller's thread); call before extracting. */
    public TreeExtractor writers(int threads) {
        if (threads < 0) {
            throw new IllegalArgumentException("writer threads must not be negative");
        }
        this.writerThreads = threads;
        return this;
    }

    /**
     * How many entries below the archive's root the last extraction restored (each matched
     * directory, file, link, device, fifo and socket once); 0 after a pattern that matched nothing.
     */
    public long restored() {
        return restored;
    }

    /** Extracts every entry of {@code decoder} into {@code target} (created if missing). */
    public void extract(EntrySource decoder, Path target) throws IOException {
        extract(decoder, target, null);
    }

    /**
     * Extracts a split archive: {@code decoder} reads the metadata stream (.mpxar), file
     * contents come from the payload stream (.ppxar) at the offsets its PAYLOAD_REF items give.
     */
    public void extract(EntrySource decoder, Path target, ReadAt payload) throws IOException {
        this.payload = payload;
        Files.createDirectories(target);
        byte[] tpath = target.toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8);
        int rootfd = sys.openat(Libc.AT_FDCWD, tpath, Libc.O_RDONLY | Libc.O_DIRECTORY | Libc.O_CLOEXEC, 0);
        writers = writerThreads > 0 ? new FileWriters(writerThreads, options, warnings) : null;
        try {
            PxarEntry e;
            while ((e = decoder.next()) != null) {
                seq++;
                try {
                    entry(decoder, e, rootfd);
                    if (writers != null) {
                        raiseWriterFailure(target);
                        if (!ended.isEmpty()) {
                            finishEnded(rootfd, false);
                        }
                    }
                } catch (IOException x) {
                    if (writers != null) {
                        writers.drain();
                        raiseWriterFailure(target); // an earlier file failed on a writer
                    }
                    throw failure(target, e, x);
                }
            }
            if (writers != null) {
                writers.drain();
                raiseWriterFailure(target);
                try {
                    finishEnded(rootfd, true);
                } catch (SysException x) {
                    throw new IOException(target + ": " + x.getMessage(), x);
                }
            }
            if (!dirs.isEmpty()) {
                throw new IOException("pxar archive ended inside a directory");
            }
        } finally {
            try {
                if (writers != null) {
                    writers.close();
                }
            } finally {
                for (Dir d : ended) {
                    dirs.push(d);
                }
                while (!dirs.isEmpty()) {
                    int fd = dirs.pop().fd;
                    if (fd >= 0 && fd != rootfd) {
                        sys.close(fd);
                    }
                }
                sys.close(rootfd);
                sys.close();
            }
        }
    }

    private static IOException failure(Path target, PxarEntry e, IOException x) {
        return x instanceof SysException ? new IOException(target + ": " + e.displayPath() + ": " + x.getMessage(), x) : x;
    }

    /** Raises the earliest failure of a writer (after the files in flight are done). */
    private void raiseWriterFailure(Path target) throws IOException {
        if (writers.failure() != null) {
            writers.drain();
            FileWriters.Failure f = writers.failure();
            throw failure(target, f.entry(), f.error());
        }
    }

    /** Applies the metadata of ended directories whose files are written (all: after the end). */
    private void finishEnded(int rootfd, boolean all) throws SysException {
        for (Iterator<Dir> it = ended.iterator(); it.hasNext(); ) {
            Dir d = it.next();
            if (all || d.pending.files.get() == 0) {
                it.remove();
                finishDir(d, rootfd);
            }
        }
    }

    private void finishDir(Dir d, int rootfd) throws SysException {
        if (d.fd >= 0 && (d.matched || d.fd != rootfd)) {
            meta.applyToOpen(d.fd, d.metadata, d.fresh);
        }
        if (d.fd >= 0 && d.fd != rootfd) {
            sys.close(d.fd);
        }
    }

    private void entry(EntrySource decoder, PxarEntry e, int rootfd) throws IOException {
        if (e.kind() == PxarEntry.Kind.DIRECTORY && e.path().length == 0) {
            Dir root = new Dir(new byte[0], e.metadata(), options.patterns().isEmpty());
            root.fd = rootfd;
            inherited(root);
            dirs.push(root);
            return;
        }
        if (e.kind() == PxarEntry.Kind.DIRECTORY_END) {
            Dir d = dirs.pop();
            if (d.pending.files.get() == 0) {
                finishDir(d, rootfd);
            } else {
                ended.add(d);
            }
            return;
        }
        int type = e.kind() == PxarEntry.Kind.HARDLINK ? -1 : e.metadata().stat().fileType();
        Boolean decision = options.patterns().isEmpty() ? Boolean.TRUE
                : MatchEntry.decide(options.patterns(), slash(e.path()), type);
        boolean matched = decision != null ? decision : dirs.peek().matched;
        byte[] name = e.name();
        if (e.kind() == PxarEntry.Kind.DIRECTORY) {
            Dir d = new Dir(name, e.metadata(), matched);
            dirs.push(d);
            if (matched) {
                parentFd();
                restored++;
            }
            return;
        }
        if (!matched) {
            return;
        }
        restored++;
        int parent = parentFd();
        switch (e.kind()) {
            case FILE -> file(decoder, e, parent, name);
            case SYMLINK -> {
                replaceIfAllowed(parent, name);
                sys.symlinkat(e.linkTarget(), parent, name);
                meta.applyToName(parent, name, e.metadata(), true);
            }
            case HARDLINK -> {
                if (writers != null) {
                    writers.drain(); // its target may be one of the files in flight
                }
                replaceIfAllowed(parent, name);
                try {
                    linkBelow(rootfd, e.linkTarget(), parent, name);
                } catch (SysException x) {
                    if (x.errno() != Libc.ENOENT || options.patterns().isEmpty()) {
                        throw x;
                    }
                    warnings.accept("warning: " + e.displayPath() + ": hardlink target /"
                            + new String(e.linkTarget(), StandardCharsets.UTF_8) + " was not restored");
                }
            }
            case DEVICE, FIFO, SOCKET -> {
                replaceIfAllowed(parent, name);
                long dev = e.kind() == PxarEntry.Kind.DEVICE ? makedev(e.deviceMajor(), e.deviceMinor()) : 0;
                sys.mknodat(parent, name, (int) e.metadata().stat().mode(), dev);
                meta.applyToName(parent, name, e.metadata(), false);
            }
            default -> throw new IllegalStateException("unexpected " + e.kind());
        }
    }

    /**
     * Makes {@code name} in {@code parent} a hardlink to the archive's earlier file {@code target}
     * (its path below the restore directory). The path is resolved below {@code rootfd} one
     * component at a time, never through a symbolic link and never through "." or "..": a
     * hostile archive cannot link a file from outside the restore directory into it (a symlink
     * it made itself, or one already in the target, is not followed; PBS's extractor resolves
     * the path as given).
     */
    private void linkBelow(int rootfd, byte[] target, int parent, byte[] name) throws SysException {
        int start = 0;
        while (start < target.length && target[start] == '/') {
            start++; // the format has no leading slash; one would still be resolved below the root
        }
        int dir = rootfd;
        try {
            for (int i = start; i <= target.length; i++) {
                if (i < target.length && target[i] != '/') {
                    continue;
                }
                byte[] component = Arrays.copyOfRange(target, start, i);
                if (component.length == 0 || Arrays.equals(component, DOT) || Arrays.equals(component, DOTDOT)) {
                    throw notBelow(target, Libc.EINVAL);
                }
                if (i == target.length) {
                    sys.linkat(dir, component, parent, name);
                    return;
                }
                int next = sys.tryOpenat(dir, component, Libc.O_RDONLY | Libc.O_DIRECTORY | Libc.O_NOFOLLOW | Libc.O_CLOEXEC, 0);
                if (next < 0) {
                    throw -next == Libc.ENOENT ? new SysException("link to hardlink target", target, Libc.ENOENT)
                            : notBelow(target, -next);
                }
                if (dir != rootfd) {
                    sys.close(dir);
                }
                dir = next;
                start = i + 1;
            }
            throw notBelow(target, Libc.EINVAL); // not reached: the last component links or throws
        } finally {
            if (dir != rootfd) {
                sys.close(dir);
            }
        }
    }

    private static final byte[] DOT = {'.'};
    private static final byte[] DOTDOT = {'.', '.'};

    private static SysException notBelow(byte[] target, int errno) {
        return new SysException("link to hardlink target", target, errno,
                "not a path below the restore directory without symbolic links");
    }

    /** The descriptor of the innermost directory, creating the not yet created ones on the way. */
    private int parentFd() throws SysException {
        Dir[] path = dirs.toArray(new Dir[0]); // innermost first
        for (int i = path.length - 1; i >= 0; i--) {
            Dir d = path[i];
            if (d.fd < 0) {
                Dir parent = path[i + 1];
                boolean created = true;
                try {
                    sys.mkdirat(parent.fd, d.name, 0700);
                } catch (SysException x) {
                    if (x.errno() != Libc.EEXIST) {
                        throw x;
                    }
                    created = false;
                }
                d.fd = sys.openat(parent.fd, d.name, Libc.O_RDONLY | Libc.O_DIRECTORY | Libc.O_NOFOLLOW
                        | Libc.O_CLOEXEC, 0);
                if (created && parent.childGid >= 0) {
                    // a new directory takes its parent's setgid bit and group, and its flags
                    d.fresh = new MetadataWriter.Fresh(euid, parent.childGid, parent.childNoFlags);
                    d.childGid = parent.childGid;
                    d.childNoFlags = parent.childNoFlags;
                } else {
                    inherited(d);
                }
            }
        }
        return path[0].fd;
    }

    /**
     * Reads what an entry created in the existing directory {@code d} inherits: its group if the
     * directory is setgid (else the process's), and whether it has chattr flags to pass on.
     */
    private void inherited(Dir d) throws SysException {
        Sys.FileStat st = new Sys.FileStat();
        sys.statx(d.fd, new byte[0], Libc.AT_EMPTY_PATH, st);
        d.childGid = (st.mode & 02000) != 0 ? st.gid : egid;
        Integer flags = sys.ioctlInt(d.fd, Libc.FS_IOC_GETFLAGS, 0, 0);
        d.childNoFlags = flags == null || (flags & PxarFlags.toChattr(-1L)) == 0;
    }

    private static byte[] slash(byte[] path) {
        byte[] p = new byte[path.length + 1];
        p[0] = '/';
        System.arraycopy(path, 0, p, 1, path.length);
        return p;
    }

    private void replaceIfAllowed(int parent, byte[] name) throws SysException {
        if (options.overwrite()) {
            unlinkIfPresent(sys, parent, name);
        }
    }

    /** Removes {@code name} below {@code parent} if it exists ({@code --overwrite}). */
    static void unlinkIfPresent(Sys sys, int parent, byte[] name) throws SysException {
        try {
            sys.unlinkat(parent, name, 0);
        } catch (SysException x) {
            if (x.errno() != Libc.ENOENT) {
                throw x;
            }
        }
    }

    private void file(EntrySource decoder, PxarEntry e, int parent, byte[] name) throws IOException {
        Dir dir = dirs.peek();
        InputStream contents = e.hasPayloadRef() ? PxarAccessor.payloadOf(payload, e) : decoder.contents();
        int initial = PxarFlags.toChattr(e.metadata().stat().flags()) & PxarFlags.INITIAL_CHATTR;
        MetadataWriter.Fresh fresh = dir.childGid < 0 ? null
                : new MetadataWriter.Fresh(euid, dir.childGid, dir.childNoFlags && initial == 0);
        if (writers != null && e.fileSize() <= FileWriters.MAX_FILE) {
            byte[] data = contents.readNBytes((int) e.fileSize());
            if (data.length != e.fileSize()) {
                throw new IOException("file contents " + data.length + " bytes, expected " + e.fileSize());
            }
            writers.submit(new FileWriters.Job(seq, e, parent, name, data, initial, fresh, dir.pending));
            return;
        }
        replaceIfAllowed(parent, name);
        int fd = sys.openat(parent, name, Libc.O_WRONLY | Libc.O_CREAT | Libc.O_EXCL | Libc.O_NOFOLLOW
                | Libc.O_CLOEXEC, 0600);
        try {
            if (initial != 0) {
                sys.ioctlInt(fd, Libc.FS_IOC_SETFLAGS, initial, 0);
            }
            content.writeSparse(contents, fd, e.fileSize());
            meta.applyToOpen(fd, e.metadata(), fresh);
        } finally {
            sys.close(fd);
        }
    }

    /** glibc's makedev for 64-bit dev_t. */
    static long makedev(long major, long minor) {
        return (major & 0xfffL) << 8 | (major & ~0xfffL) << 32 | (minor & 0xffL) | (minor & ~0xffL) << 12;
    }
}
