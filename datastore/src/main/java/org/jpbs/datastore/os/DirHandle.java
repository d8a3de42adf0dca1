package org.jpbs.datastore.os;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;

/**
 * An open directory for scanning many entries fast: {@code opendir}/{@code readdir64} give the
 * names with inode numbers and types without a {@code stat}, and {@link #stat(String)} is a
 * {@code statx} relative to the directory's descriptor (no path walk per file). Used by the
 * garbage-collection sweep and the chunk-metadata prefetch over the 65,536 chunk directories.
 * Without native access it falls back to {@link DirectoryStream} and
 * {@link Files#readAttributes} (inode 0, type unknown in listings).
 *
 * <p>Confined to the thread that opened it. Close it (try-with-resources).
 */
public final class DirHandle implements AutoCloseable {
    /** {@code d_type} of a regular file. */
    public static final int DT_REG = 8;
    /** {@code d_type} of a directory. */
    public static final int DT_DIR = 4;
    /** {@code d_type} when the file system does not tell (stat to find out). */
    public static final int DT_UNKNOWN = 0;

    /**
     * One directory entry.
     *
     * @param name  file name
     * @param inode inode number (0 without native access)
     * @param type  {@link #DT_REG}, {@link #DT_DIR}, other {@code d_type} values, or {@link #DT_UNKNOWN}
     */
    public record Entry(String name, long inode, int type) {}

    private final Path dir;
    private final Arena arena;
    private final MemorySegment dirp;
    private final int fd;
    private final MemorySegment capture;
    private final MemorySegment statxBuf;
    private final MemorySegment nameBuf;
    private boolean closed;

    private DirHandle(Path dir, Arena arena, MemorySegment dirp, int fd) {
        this.dir = dir;
        this.arena = arena;
        this.dirp = dirp;
        this.fd = fd;
        this.capture = arena == null ? null : Native.captureSegment(arena);
        this.statxBuf = arena == null ? null : arena.allocate(Native.STATX_SIZE_BYTES, 8);
        this.nameBuf = arena == null ? null : arena.allocate(512);
    }

    /**
     * Opens a directory.
     *
     * @throws NoSuchFileException                  if it does not exist
     * @throws java.nio.file.AccessDeniedException  if it may not be read
     * @throws IOException                          on other errors (message names the directory)
     */
    public static DirHandle open(Path dir) throws IOException {
        if (!Native.AVAILABLE) {
            if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                throw new NoSuchFileException(dir.toString(), null, "no such directory");
            }
            return new DirHandle(dir, null, null, -1);
        }
        Arena arena = Arena.ofConfined();
        try {
            MemorySegment capture = Native.captureSegment(arena);
            MemorySegment cpath = arena.allocateFrom(dir.toAbsolutePath().toString());
            MemorySegment d = (MemorySegment) Native.OPENDIR.invokeExact(capture, cpath);
            if (d.address() == 0) {
                throw Native.error("opendir", dir, Native.errno(capture));
            }
            int fd = (int) Native.DIRFD.invokeExact(d);
            return new DirHandle(dir, arena, d, fd);
        } catch (IOException | RuntimeException | Error e) {
            arena.close();
            throw e;
        } catch (Throwable t) {
            arena.close();
            throw new IOException(dir + ": opendir failed: " + t, t);
        }
    }

    /** The directory. */
    public Path path() {
        return dir;
    }

    /**
     * Every entry except {@code .} and {@code ..}, in directory order.
     *
     * @throws IOException if reading the directory fails (message names it)
     */
    public List<Entry> entries() throws IOException {
        List<Entry> out = new ArrayList<>();
        if (arena == null) {
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
                for (Path p : ds) {
                    out.add(new Entry(p.getFileName().toString(), 0, DT_UNKNOWN));
                }
            }
            return out;
        }
        try {
            while (true) {
                Native.clearErrno();
                MemorySegment e = (MemorySegment) Native.READDIR.invokeExact(capture, dirp);
                if (e.address() == 0) {
                    int errno = Native.errno(capture);
                    if (errno != 0) {
                        throw Native.error("readdir", dir, errno);
                    }
                    return out;
                }
                // struct dirent64 { u64 d_ino; s64 d_off; u16 d_reclen; u8 d_type; char d_name[]; }
                MemorySegment ent = e.reinterpret(19 + 256);
                long ino = ent.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
                int type = ent.get(ValueLayout.JAVA_BYTE, 18) & 0xff;
                String name = ent.getString(19);
                if (!name.equals(".") && !name.equals("..")) {
                    out.add(new Entry(name, ino, type));
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IOException(dir + ": readdir failed: " + t, t);
        }
    }

    /**
     * {@code lstat} of an entry (symlinks not followed).
     *
     * @throws NoSuchFileException if it does not exist (any more)
     * @throws IOException         on other errors
     */
    public FileStat stat(String name) throws IOException {
        if (arena == null) {
            Path p = dir.resolve(name);
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            FileTime at = a.lastAccessTime();
            long nanos = at.to(java.util.concurrent.TimeUnit.NANOSECONDS);
            return new FileStat(0, a.size(), Math.floorDiv(nanos, 1_000_000_000L), (int) Math.floorMod(nanos, 1_000_000_000L),
                    a.lastModifiedTime().to(java.util.concurrent.TimeUnit.SECONDS), a.isRegularFile(), a.isDirectory());
        }
        try {
            MemorySegment cname = nameFor(name);
            int mask = Native.STATX_TYPE | Native.STATX_MODE | Native.STATX_INO | Native.STATX_ATIME | Native.STATX_SIZE
                    | Native.STATX_MTIME;
            int rc = (int) Native.STATX.invokeExact(capture, fd, cname, Native.AT_SYMLINK_NOFOLLOW, mask, statxBuf);
            if (rc != 0) {
                throw Native.error("statx", dir.resolve(name), Native.errno(capture));
            }
            return decodeStatx(statxBuf);
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IOException(dir.resolve(name) + ": statx failed: " + t, t);
        }
    }

    /** Decodes the fields of a {@code struct statx} (kernel ABI, the same on every architecture). */
    static FileStat decodeStatx(MemorySegment b) {
        int mode = b.get(ValueLayout.JAVA_SHORT, 28) & 0xffff;
        long ino = b.get(ValueLayout.JAVA_LONG, 32);
        long size = b.get(ValueLayout.JAVA_LONG, 40);
        long atimeSec = b.get(ValueLayout.JAVA_LONG, 64);
        int atimeNsec = b.get(ValueLayout.JAVA_INT, 72);
        long mtimeSec = b.get(ValueLayout.JAVA_LONG, 112);
        int fmt = mode & 0xf000;
        return new FileStat(ino, size, atimeSec, atimeNsec, mtimeSec, fmt == 0x8000, fmt == 0x4000);
    }

    private MemorySegment nameFor(String name) {
        byte[] b = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        if (b.length + 1 > nameBuf.byteSize()) {
            return arena.allocateFrom(name);
        }
        MemorySegment.copy(b, 0, nameBuf, ValueLayout.JAVA_BYTE, 0, b.length);
        nameBuf.set(ValueLayout.JAVA_BYTE, b.length, (byte) 0);
        return nameBuf;
    }

    /** Closes the directory. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (arena != null) {
            try {
                int ignored = (int) Native.CLOSEDIR.invokeExact(dirp);
            } catch (Throwable t) {
                // nothing useful to do: the descriptor is gone either way
            } finally {
                arena.close();
            }
        }
    }
}
