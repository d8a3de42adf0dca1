package org.jpbs.datastore.os;

import java.time.Instant;

/**
 * The few {@code stat} fields garbage collection and verify need.
 *
 * @param inode     inode number (0 if unknown)
 * @param size      length in bytes
 * @param atimeSec  access time, seconds since the epoch
 * @param atimeNsec nanoseconds part of the access time (0..999,999,999)
 * @param mtimeSec  modification time, seconds since the epoch
 * @param regular   true for a regular file
 * @param directory true for a directory
 */
public record FileStat(long inode, long size, long atimeSec, int atimeNsec, long mtimeSec, boolean regular, boolean directory) {
    /** The access time as an instant. */
    public Instant atime() {
        return Instant.ofEpochSecond(atimeSec, atimeNsec);
    }

    /** True if the access time is strictly before {@code t}. */
    public boolean atimeBefore(Instant t) {
        return atimeSec < t.getEpochSecond() || (atimeSec == t.getEpochSecond() && atimeNsec < t.getNano());
    }
}
