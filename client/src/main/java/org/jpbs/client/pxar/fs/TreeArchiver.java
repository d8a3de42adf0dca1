package org.jpbs.client.pxar.fs;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
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
    private final Map<Long, Map<Long, Object[]>> hardlinks = new HashMap<>();
    private final byte[] copy = new byte[1 << 20];
    private final Sys.FileStat st = new Sys.FileStat();
    private PxarEncoder enc;
    private long entries;
    private long fsMagic;
    private long features;
    private long currentDev;
    private Set<Long> devices;
    private final List<MatchEntry> patterns = new java.util.ArrayList<>();

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

    /** Writes the pxar stream of {@code root} to {@code out} (not closed). */
    public void archive(Path root, OutputStream out) throws IOException {
        archive(root, out, null);
    }

    /**
     * Writes {@code root} as a split archive ({@code docs/pxar.md#split-archives}) when
     * {@code payload} is non-null: metadata to {@code out}, file contents to {@code payload}.
     */
    public void archive(Path root, OutputStream out, OutputStream payload) throws IOException {
        byte[] rootPath = root.toString().getBytes(StandardCharsets.UTF_8);
        int fd;
        try {
            fd = sys.openat(Libc.AT_FDCWD, rootPath, Libc.O_RDONLY | Libc.O_DIRECTORY | Libc.O_CLOEXEC, 0);
        } catch (SysException e) {
            throw new IOException("cannot open directory " + root + ": " + Libc.strerror(e.errno()), e);
        }
        try {
            fsMagic = sys.fsType(fd);
            if (PxarFlags.isVirtual(fsMagic)) {
                throw new IOException("refusing to back up a virtual file system: " + root);
            }
            features = PxarFlags.featuresOf(fsMagic);
            sys.statx(fd, new byte[0], Libc.AT_EMPTY_PATH, st);
            currentDev = st.dev();
            if (options.devices() != null) {
                devices = new java.util.HashSet<>(options.devices());
                devices.add(currentDev);
            }
            Metadata meta = metadata(fd, st, root.toString());
            enc = new PxarEncoder(out, payload, meta);
            patterns.addAll(options.patterns());
            if (options.skipLostAndFound()) {
                patterns.add(MatchEntry.parse(LOST_FOUND, false, false));
            }
            archiveDir(fd, new byte[0]);
            enc.finish();
        } finally {
            sys.close(fd);
            sys.close();
        }
    }

    private void archiveDir(int dirfd, byte[] dirPath) throws IOException {
        long entriesBefore = entries;
        int cliPatterns = patterns.size();
        ExcludeFile.read(sys, dirfd, dirPath, patterns, warnings);
        boolean root = dirPath.length == 0;
        List<byte[]> names = sys.readdir(dirfd);
        Object[][] list = new Object[names.size()][];
        int n = 0;
        for (byte[] name : names) {
            Sys.FileStat s = new Sys.FileStat();
            try {
                sys.statx(dirfd, name, Libc.AT_SYMLINK_NOFOLLOW, s);
            } catch (SysException e) {
                if (e.errno() == Libc.ENOENT) {
                    continue;
                }
                throw new IOException("stat failed on " + show(join(dirPath, name)) + ": " + Libc.strerror(e.errno()), e);
            }
            if (root && Arrays.equals(name, ExcludeFile.CLI_NAME)) {
                continue;
            }
            if (Boolean.FALSE.equals(MatchEntry.decide(patterns, slash(join(dirPath, name)), s.type()))) {
                continue;
            }
            if (++entries > options.entriesMax()) {
                throw new IOException("exceeded allowed number of file entries (> " + options.entriesMax() + ")");
            }
            list[n++] = new Object[] {name, s};
        }
        Arrays.sort(list, 0, n, (a, b) -> Arrays.compareUnsigned((byte[]) a[0], (byte[]) b[0]));
        for (int i = 0; i < n; i++) {
            byte[] name = (byte[]) list[i][0];
            addEntry(dirfd, name, join(dirPath, name), (Sys.FileStat) list[i][1]);
        }
        if (root && cliPatterns > 0) {
            addCliExcludes(patterns.subList(0, cliPatterns));
        }
        entries = entriesBefore;
        patterns.subList(cliPatterns, patterns.size()).clear();
    }

    private static final byte[] LOST_FOUND = "lost+found".getBytes(StandardCharsets.US_ASCII);

    private void addEntry(int dirfd, byte[] name, byte[] path, Sys.FileStat s) throws IOException {
        int type = s.type();
        boolean regOrDir = type == 0100000 || type == 0040000;
        int flags = Libc.O_RDONLY | Libc.O_NOFOLLOW | Libc.O_CLOEXEC | Libc.O_NOCTTY
                | (regOrDir ? Libc.O_NOATIME : Libc.O_PATH);
        int fd;
        try {
            fd = openNoatime(dirfd, name, flags);
        } catch (SysException e) {
            if (e.errno() == Libc.ENOENT) {
                warnings.accept("warning: file vanished while reading: " + show(path));
                return;
            }
            if (e.errno() == Libc.EACCES) {
                warnings.accept("failed to open file: " + show(path) + ": access denied");
                return;
            }
            throw new IOException("cannot open " + show(path) + ": " + Libc.strerror(e.errno()), e);
        }
        try {
            Metadata meta = regOrDir ? metadata(fd, s, show(path)) : Metadata.of(stat(s, 0));
            switch (type) {
                case 0100000 -> addFile(fd, name, path, s, meta);
                case 0040000 -> addDirectory(fd, name, path, s, meta);
                case 0120000 -> {
                    if (catalog != null) {
                        catalog.addOther('l', name);
                    }
                    enc.addSymlink(name, meta, sys.readlinkat(dirfd, name));
                }
                case 0020000, 0060000 -> {
                    if (catalog != null) {
                        catalog.addOther(type == 0060000 ? 'b' : 'c', name);
                    }
                    enc.addDevice(name, meta, s.rdevMajor, s.rdevMinor);
                }
                case 0010000, 0140000 -> {
                    if (catalog != null) {
                        catalog.addOther(type == 0010000 ? 'p' : 's', name);
                    }
                    enc.addSpecial(name, meta);
                }
                default -> throw new IOException(String.format("unknown file type 0%o: %s", type, show(path)));
            }
        } finally {
            sys.close(fd);
        }
    }

    /** The root's {@code .pxarexclude-cli}: the command-line patterns, after the sorted entries, as pxar does. */
    private void addCliExcludes(List<MatchEntry> cli) throws IOException {
        java.io.ByteArrayOutputStream content = new java.io.ByteArrayOutputStream();
        for (MatchEntry e : cli) {
            content.writeBytes(e.cliLine());
        }
        byte[] data = content.toByteArray();
        if (catalog != null) {
            catalog.addFile(ExcludeFile.CLI_NAME, data.length, 0);
        }
        enc.beginFile(ExcludeFile.CLI_NAME, Metadata.of(new Stat(0100600, 0, 0, 0, 0, 0)), data.length);
        enc.write(data, 0, data.length);
        enc.endFile();
    }

    private static byte[] slash(byte[] path) {
        byte[] p = new byte[path.length + 1];
        p[0] = '/';
        System.arraycopy(path, 0, p, 1, path.length);
        return p;
    }

    private int openNoatime(int dirfd, byte[] name, int flags) throws SysException {
        try {
            return sys.openat(dirfd, name, flags, 0);
        } catch (SysException e) {
            if (e.errno() == Libc.EPERM && (flags & Libc.O_NOATIME) != 0) {
                return sys.openat(dirfd, name, flags & ~Libc.O_NOATIME, 0);
            }
            throw e;
        }
    }

    private void addFile(int fd, byte[] name, byte[] path, Sys.FileStat s, Metadata meta) throws IOException {
        if (s.nlink > 1) {
            Object[] first = hardlinks.computeIfAbsent(s.dev(), k -> new HashMap<>()).get(s.ino);
            if (first != null) {
                if (catalog != null) {
                    catalog.addOther('h', name);
                }
                enc.addHardlink(name, (byte[]) first[0], (Long) first[1]);
                return;
            }
        }
        if (catalog != null) {
            catalog.addFile(name, s.size, s.mtimeSecs);
        }
        long offset = enc.beginFile(name, meta, s.size);
        long remaining = s.size;
        while (remaining > 0) {
            int got = sys.read(fd, copy, 0, copy.length);
            if (got == 0) {
                break;
            }
            if (got > remaining) {
                warnings.accept("warning: file size increased while reading: " + show(path) + ", file will be truncated!");
                got = (int) remaining;
            }
            enc.write(copy, 0, got);
            remaining -= got;
        }
        if (remaining > 0) {
            warnings.accept("warning: file size shrunk while reading: " + show(path) + ", file will be padded with zeros!");
            Arrays.fill(copy, (byte) 0);
            while (remaining > 0) {
                int k = (int) Math.min(remaining, copy.length);
                enc.write(copy, 0, k);
                remaining -= k;
            }
        }
        enc.endFile();
        if (s.nlink > 1) {
            hardlinks.get(s.dev()).put(s.ino, new Object[] {path, offset});
        }
    }

    private void addDirectory(int fd, byte[] name, byte[] path, Sys.FileStat s, Metadata meta) throws IOException {
        if (catalog != null) {
            catalog.startDirectory(name);
        }
        enc.beginDirectory(name, meta);
        long oldMagic = fsMagic;
        long oldFeatures = features;
        long oldDev = currentDev;
        boolean skip = false;
        if (s.dev() != currentDev) {
            fsMagic = sys.fsType(fd);
            features = PxarFlags.featuresOf(fsMagic);
            currentDev = s.dev();
            skip = PxarFlags.isVirtual(fsMagic) || devices != null && !devices.contains(s.dev());
        }
        try {
            if (skip) {
                warnings.accept("skipping mount point: " + show(path));
            } else {
                archiveDir(fd, path);
            }
        } finally {
            fsMagic = oldMagic;
            features = oldFeatures;
            currentDev = oldDev;
        }
        enc.endDirectory();
        if (catalog != null) {
            catalog.endDirectory();
        }
    }

    private Stat stat(Sys.FileStat s, long flags) {
        return new Stat(Integer.toUnsignedLong(s.mode), flags, s.uid, s.gid, s.mtimeSecs, s.mtimeNanos);
    }

    /** The metadata of an open regular file or directory. */
    private Metadata metadata(int fd, Sys.FileStat s, String where) throws IOException {
        MetadataReader r = new MetadataReader(sys, fd, features, fsMagic);
        try {
            return r.read(stat(s, 0));
        } catch (SysException e) {
            throw new IOException(where + ": " + e.getMessage(), e);
        }
    }

    private static byte[] join(byte[] dir, byte[] name) {
        if (dir.length == 0) {
            return name;
        }
        byte[] p = Arrays.copyOf(dir, dir.length + 1 + name.length);
        p[dir.length] = '/';
        System.arraycopy(name, 0, p, dir.length + 1, name.length);
        return p;
    }

    private static String show(byte[] path) {
        return "\"/" + new String(path, StandardCharsets.UTF_8) + "\"";
    }
}
