package org.jpbs.cli.mount;

import java.lang.foreign.MemorySegment;
import java.lang.reflect.Method;
import org.cryptomator.jfuse.api.FuseConfig;
import org.cryptomator.jfuse.api.Stat;
import org.cryptomator.jfuse.linux.amd64.extr.fuse3.fuse_config;
import org.cryptomator.jfuse.linux.amd64.extr.fuse3.stat;

/**
 * The native fields jfuse's API has no setter for: {@code struct stat}'s {@code st_ino} and
 * {@code st_rdev}, and {@code struct fuse_config}'s {@code use_ino} (libfuse3 takes it only in
 * {@code init}, not as a mount option): with it, the kernel sees the archive's inode numbers,
 * so hardlinks share theirs. They are written through jfuse's own generated struct layouts
 * into the native struct its Linux x86-64 implementation wraps ({@code segment()} of its
 * records). With another implementation nothing is written (FUSE numbers the inodes itself).
 */
final class NativeFields {
    private NativeFields() {}

    /** Sets {@code st_ino} and {@code st_rdev}. */
    static void setInoAndRdev(Stat s, long ino, long rdev) {
        MemorySegment seg = segmentOf(s);
        if (seg != null && seg.byteSize() >= stat.layout().byteSize()) {
            stat.st_ino(seg, ino);
            stat.st_rdev(seg, rdev);
        }
    }

    /** Turns on {@code use_ino} in libfuse's configuration; true if it is on. */
    static boolean useIno(FuseConfig cfg) {
        MemorySegment seg = segmentOf(cfg);
        if (seg != null && seg.byteSize() >= fuse_config.layout().byteSize()) {
            fuse_config.use_ino(seg, 1);
        }
        return cfg.useIno() == 1;
    }

    /** The native struct behind one of jfuse's wrapper records, or null. */
    private static MemorySegment segmentOf(Object wrapper) {
        if (wrapper == null) {
            return null;
        }
        try {
            Method m = wrapper.getClass().getDeclaredMethod("segment");
            m.setAccessible(true);
            return m.invoke(wrapper) instanceof MemorySegment seg ? seg : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
