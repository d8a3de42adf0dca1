package org.jpbs.client.pxar.fs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
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
 * applied when its last child is written, so its time and flags stick.
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
    private final int euid;
    private final int egid;
    private ReadAt payload;

    public TreeExtractor(Options options, Consumer<String> warnings) {
        this.options = Objects.requireNonNull(options, "options");
        this.warnings = Objects.requireNonNull(warnings, "warnings");
        this.meta = new MetadataWriter(sys, options, warnings);
        int[] ids = Sys.effectiveIds();
        this.euid = ids[0];
        this.egid = ids[1];
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
        try {
            PxarEntry e;
            while ((e = decoder.next()) != null) {
                try {
                    entry(decoder, e, rootfd);
                } catch (SysException x) {
                    throw new IOException(target + ": " + e.displayPath() + ": " + x.getMessage(), x);
                }
            }
            if (!dirs.isEmpty()) {
                throw new IOException("pxar archive ended inside a directory");
            }
        } finally {
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
            if (d.fd >= 0 && (d.matched || d.fd != rootfd)) {
                meta.applyToOpen(d.fd, d.metadata, d.fresh);
            }
            if (d.fd >= 0 && d.fd != rootfd) {
                sys.close(d.fd);
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
            }
            return;
        }
        if (!matched) {
            return;
        }
        int parent = parentFd();
        switch (e.kind()) {
            case FILE -> file(decoder, e, parent, name);
            case SYMLINK -> {
                replaceIfAllowed(parent, name);
                sys.symlinkat(e.linkTarget(), parent, name);
                meta.applyToName(parent, name, e.metadata(), true);
            }
            case HARDLINK -> {
                replaceIfAllowed(parent, name);
                try {
                    sys.linkat(rootfd, e.linkTarget(), parent, name);
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
        if (!options.overwrite()) {
            return;
        }
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
        replaceIfAllowed(parent, name);
        int fd = sys.openat(parent, name, Libc.O_WRONLY | Libc.O_CREAT | Libc.O_EXCL | Libc.O_NOFOLLOW
                | Libc.O_CLOEXEC, 0600);
        try {
            int initial = PxarFlags.toChattr(e.metadata().stat().flags()) & PxarFlags.INITIAL_CHATTR;
            if (initial != 0) {
                sys.ioctlInt(fd, Libc.FS_IOC_SETFLAGS, initial, 0);
            }
            content.writeSparse(contents, fd, e.fileSize());
            meta.applyToOpen(fd, e.metadata(), dir.childGid < 0 ? null
                    : new MetadataWriter.Fresh(euid, dir.childGid, dir.childNoFlags && initial == 0));
        } finally {
            sys.close(fd);
        }
    }

    /** glibc's makedev for 64-bit dev_t. */
    static long makedev(long major, long minor) {
        return (major & 0xfffL) << 8 | (major & ~0xfffL) << 32 | (minor & 0xffL) | (minor & ~0xffL) << 12;
    }
}
