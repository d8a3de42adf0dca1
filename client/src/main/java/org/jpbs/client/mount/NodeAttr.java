package org.jpbs.client.mount;

/**
 * The attributes a mount reports for one path (a {@code struct stat}): the inode number (equal
 * for all names of a hardlinked file), the full mode with the file type bits, the link count,
 * owner, size (a symbolic link's: its target's length), the modification time (also shown as
 * access and change time) and a device's number ({@code makedev(major, minor)}).
 */
public record NodeAttr(long ino, int mode, int nlink, int uid, int gid, long size, long mtimeSecs, int mtimeNanos,
        long rdev) {

    /** The file type bits of {@link #mode}. */
    public int fileType() {
        return mode & 0170000;
    }

    /** Linux's {@code makedev}: the device number of a major and minor number. */
    public static long makedev(long major, long minor) {
        return (minor & 0xffL) | ((major & 0xfffL) << 8) | ((minor & ~0xffL) << 12) | ((major & ~0xfffL) << 32);
    }
}
