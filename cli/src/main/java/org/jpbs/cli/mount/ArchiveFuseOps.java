package org.jpbs.cli.mount;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.cryptomator.jfuse.api.DirFiller;
import org.cryptomator.jfuse.api.Errno;
import org.cryptomator.jfuse.api.FileInfo;
import org.cryptomator.jfuse.api.FuseConfig;
import org.cryptomator.jfuse.api.FuseConnInfo;
import org.cryptomator.jfuse.api.FuseOperations;
import org.cryptomator.jfuse.api.Stat;
import org.cryptomator.jfuse.api.Statvfs;
import org.jpbs.client.mount.ArchiveTree;
import org.jpbs.client.mount.NodeAttr;
import org.jpbs.client.mount.TreeException;
import org.jpbs.core.pxar.XAttr;

/**
 * The FUSE operations of a read-only mount, answered from an {@link ArchiveTree}: attributes
 * (with the archive's inode numbers: mounted with {@code use_ino}), directory listings, symbolic links,
 * reads and xattrs. Everything that would write is left to FUSE's default ({@code ENOSYS});
 * the mount is also read-only ({@code -o ro}). A failed archive read (a missing or corrupt
 * chunk) is {@code EIO} and reported once per path through {@code warnings}.
 */
final class ArchiveFuseOps implements FuseOperations {
    private static final int O_ACCMODE = 3;
    private static final int O_RDONLY = 0;

    private final ArchiveTree tree;
    private final Errno errno;
    private final Consumer<String> warnings;
    private final Set<String> reported = java.util.concurrent.ConcurrentHashMap.newKeySet();

    ArchiveFuseOps(ArchiveTree tree, Errno errno, Consumer<String> warnings) {
        this.tree = tree;
        this.errno = errno;
        this.warnings = warnings;
    }

    @Override
    public Errno errno() {
        return errno;
    }

    @Override
    public Set<Operation> supportedOperations() {
        return EnumSet.of(Operation.INIT, Operation.GET_ATTR, Operation.READLINK, Operation.OPEN, Operation.READ,
                Operation.RELEASE, Operation.OPEN_DIR, Operation.READ_DIR, Operation.RELEASE_DIR,
                Operation.GET_XATTR, Operation.LIST_XATTR, Operation.STATFS);
    }

    @Override
    public void init(FuseConnInfo conn, FuseConfig cfg) {
        NativeFields.useIno(cfg); // hardlinks share their inode number
    }

    @Override
    public int getattr(String path, Stat stat, FileInfo fi) {
        try {
            fill(stat, tree.attr(path));
            return 0;
        } catch (IOException | RuntimeException e) {
            return error(path, e);
        }
    }

    static void fill(Stat stat, NodeAttr a) {
        stat.setMode(a.mode());
        stat.setUid(a.uid());
        stat.setGid(a.gid());
        stat.setNLink((short) a.nlink());
        stat.setSize(a.size());
        Instant t = Instant.ofEpochSecond(a.mtimeSecs(), a.mtimeNanos());
        stat.mTime().set(t);
        stat.aTime().set(t);
        stat.cTime().set(t);
        NativeFields.setInoAndRdev(stat, a.ino(), a.rdev());
    }

    @Override
    public int readlink(String path, ByteBuffer buf, long len) {
        try {
            byte[] target = tree.readlink(path);
            int n = (int) Math.min(target.length, Math.max(0, len - 1));
            buf.put(target, 0, n);
            buf.put((byte) 0);
            return 0;
        } catch (IOException | RuntimeException e) {
            return error(path, e);
        }
    }

    @Override
    public int open(String path, FileInfo fi) {
        if ((fi.getFlags() & O_ACCMODE) != O_RDONLY) {
            return -errno.erofs();
        }
        try {
            fi.setFh(tree.open(path));
            return 0;
        } catch (IOException | RuntimeException e) {
            return error(path, e);
        }
    }

    @Override
    public int read(String path, ByteBuffer buf, long count, long offset, FileInfo fi) {
        try {
            byte[] b = new byte[(int) Math.min(count, buf.remaining())];
            int n = tree.read(fi.getFh(), offset, b, 0, b.length);
            buf.put(b, 0, n);
            return n;
        } catch (IOException | RuntimeException e) {
            return error(path, e);
        }
    }

    @Override
    public int release(String path, FileInfo fi) {
        tree.release(fi.getFh());
        return 0;
    }

    @Override
    public int opendir(String path, FileInfo fi) {
        try {
            if ((tree.attr(path).fileType()) != 0040000) {
                return -errno.enotdir();
            }
            return 0;
        } catch (IOException | RuntimeException e) {
            return error(path, e);
        }
    }

    /**
     * Lists a directory with every entry's attributes: with {@code use_ino} the kernel would
     * drop an entry with inode 0, and the attributes spare it a lookup per name.
     */
    @Override
    public int readdir(String path, DirFiller filler, long offset, FileInfo fi, int flags) {
        try {
            NodeAttr self = tree.attr(path);
            String prefix = path.endsWith("/") ? path : path + "/";
            fill(filler, ".", self);
            fill(filler, "..", path.equals("/") ? self : tree.attr(path.substring(0, Math.max(1, path.lastIndexOf('/')))));
            for (String name : tree.list(path)) {
                fill(filler, name, tree.attr(prefix + name));
            }
            return 0;
        } catch (IOException | RuntimeException e) {
            return error(path, e);
        }
    }

    private static void fill(DirFiller filler, String name, NodeAttr a) throws IOException {
        if (filler.fill(name, stat -> fill(stat, a), 0, DirFiller.FUSE_FILL_DIR_PLUS) != 0) {
            throw new IOException("directory listing buffer full at " + name);
        }
    }

    @Override
    public int releasedir(String path, FileInfo fi) {
        return 0;
    }

    @Override
    public int getxattr(String path, String name, ByteBuffer value) {
        int size = value.capacity(); // 0: the caller asks for the length
        try {
            byte[] want = name.getBytes(StandardCharsets.UTF_8);
            for (XAttr x : tree.xattrs(path)) {
                if (Arrays.equals(x.name(), want)) {
                    if (size == 0) {
                        return x.value().length;
                    }
                    if (size < x.value().length) {
                        return -errno.erange();
                    }
                    value.put(x.value());
                    return x.value().length;
                }
            }
            return -errno.enodata();
        } catch (IOException | RuntimeException e) {
            return error(path, e);
        }
    }

    @Override
    public int listxattr(String path, ByteBuffer list) {
        int size = list.capacity(); // 0: the caller asks for the length
        try {
            List<XAttr> xs = tree.xattrs(path);
            int total = 0;
            for (XAttr x : xs) {
                total += x.name().length + 1;
            }
            if (size == 0) {
                return total;
            }
            if (size < total) {
                return -errno.erange();
            }
            for (XAttr x : xs) {
                list.put(x.name());
                list.put((byte) 0);
            }
            return total;
        } catch (IOException | RuntimeException e) {
            return error(path, e);
        }
    }

    @Override
    public int statfs(String path, Statvfs statvfs) {
        long bsize = 4096;
        statvfs.setBsize(bsize);
        statvfs.setFrsize(bsize);
        statvfs.setBlocks((tree.totalBytes() + bsize - 1) / bsize);
        statvfs.setBfree(0);
        statvfs.setBavail(0);
        statvfs.setNameMax(255);
        return 0;
    }

    /** The negated errno for a failure; an archive read failure is EIO and reported. */
    private int error(String path, Throwable e) {
        if (e instanceof TreeException t) {
            return -switch (t.reason()) {
                case ENOENT -> errno.enoent();
                case ENOTDIR -> errno.enotdir();
                case EISDIR -> errno.eisdir();
                case EINVAL -> errno.einval();
                case ENODATA -> errno.enodata();
            };
        }
        if (reported.size() < 1000 && reported.add(path)) {
            warnings.accept(path + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
        }
        return -errno.eio();
    }
}
