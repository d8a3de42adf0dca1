package org.jpbs.datastore.gc;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import org.jpbs.core.blob.ZeroChunks;
import org.jpbs.core.digest.Digest;
import org.jpbs.datastore.chunks.DirectoryChunkStore;
import org.jpbs.datastore.os.FileStat;

/**
 * The atime safety check at GC start ({@code docs/gc.md#atime-safety-check}): the sweep trusts
 * atimes, so GC must not run on a file system that ignores atime updates (e.g. mounted
 * {@code noatime} on some systems, or a FUSE layer). The all-zero 4 MiB chunk is inserted if
 * missing; then its atime is set to one hour ago, read back, touched to "now" and read again.
 * Unlike PBS, jpbs does not sleep a second: setting an old atime first makes the change
 * visible at any timestamp granularity. If the inode changes in between (a concurrent insert
 * replaced the file) the check is repeated once.
 */
final class AtimeSafetyCheck {
    private AtimeSafetyCheck() {}

    /**
     * Runs the check.
     *
     * @param now GC start
     * @throws IOException {@code "access time safety check using pre-existing|newly inserted chunk
     *                     failed, aborting GC! (...)"} if the atime did not move to now
     */
    static void run(GcFs fs, DirectoryChunkStore store, Instant now, GcListener listener) throws IOException {
        Digest zero = ZeroChunks.ZERO_4M;
        boolean inserted = false;
        if (!store.exists(zero)) {
            store.insert(zero, ZeroChunks.blob(4 << 20));
            inserted = true;
        }
        String which = inserted ? "newly inserted" : "pre-existing";
        Path p = store.chunkPath(zero);
        for (int attempt = 0; attempt < 2; attempt++) {
            Instant probe = now.minusSeconds(3600);
            fs.setAtime(p, probe);
            FileStat before = fs.stat(p);
            fs.touchAtime(p);
            FileStat after = fs.stat(p);
            if (before.inode() != after.inode()) {
                continue; // replaced meanwhile: try once more on the new file
            }
            boolean moved = before.atime().isBefore(after.atime());
            boolean isNow = !after.atime().isBefore(now.minusSeconds(2));
            if (moved && isNow) {
                listener.info("access time safety check passed (" + which + " chunk " + zero.hex() + ")");
                return;
            }
            throw new IOException("access time safety check using " + which + " chunk failed, aborting GC! "
                    + "(atime set to " + probe + ", read back " + before.atime() + ", after touch " + after.atime()
                    + ", GC start " + now + "): the file system of " + p.getParent().getParent()
                    + " does not honour atime updates");
        }
        throw new IOException("access time safety check failed, aborting GC! (the inode of chunk " + zero.hex()
                + " changed twice during the check)");
    }
}
