package org.jpbs.core.pxar;

/**
 * The ENTRY item: the full {@code st_mode} (type bits included), the pxar feature flags
 * (chattr / FAT attributes, {@link PxarFlags}), owner, group and the modification time as
 * signed seconds plus nanoseconds.
 */
public record Stat(long mode, long flags, int uid, int gid, long mtimeSecs, int mtimeNanos) {
    /** The file-type bits of the mode. */
    public int fileType() {
        return (int) (mode & PxarFormat.S_IFMT);
    }

    public boolean isDirectory() {
        return fileType() == PxarFormat.S_IFDIR;
    }

    public boolean isRegularFile() {
        return fileType() == PxarFormat.S_IFREG;
    }

    public boolean isSymlink() {
        return fileType() == PxarFormat.S_IFLNK;
    }

    public boolean isDevice() {
        return fileType() == PxarFormat.S_IFCHR || fileType() == PxarFormat.S_IFBLK;
    }

    /** Permission bits with setuid, setgid and sticky. */
    public int permissions() {
        return (int) (mode & 07777);
    }
}
