package org.jpbs.datastore.lock;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * The datastore process lock: a POSIX record lock ({@code fcntl}, whole file) on
 * {@code <root>/.lock}, as PBS's ProcessLocker takes it (spec {@code pbs-formats.md} §6
 * "{@code .lock}", {@code pbs-datastore-ops.md} §1.1). Backup writers hold it <b>shared</b>
 * for their whole run, garbage collection holds it <b>exclusive</b>; so a jpbs process and a
 * PBS process never garbage-collect a datastore the other is writing to. On Linux
 * {@link FileChannel#tryLock(long, long, boolean)} is exactly {@code F_SETLK} with
 * {@code F_RDLCK}/{@code F_WRLCK}.
 *
 * <p>In-process counting: POSIX locks belong to the process, and a JVM may not hold two
 * overlapping {@link FileLock}s (closing any descriptor of the file would even drop them all).
 * So one {@link FileLock} per datastore (keyed by the canonical root path) is shared by all
 * in-process shared holders and released when the last one closes. Within this JVM, shared
 * and exclusive exclude each other (stricter than PBS, where GC and writers of one process
 * coexist): an exclusive request while shared holders exist fails, and vice versa.
 *
 * <p>Every request is non-blocking and fails with {@link LockedException}. Use with
 * try-with-resources; {@link #close()} is idempotent. Never open {@code .lock} elsewhere in
 * the JVM while a lock is held.
 */
public final class DatastoreLock implements AutoCloseable {
    /** Name of the lock file in the datastore root. */
    public static final String LOCK_FILE = ".lock";

    private static final Map<Path, Holder> HOLDERS = new HashMap<>(); // guarded by itself

    private static final class Holder {
        FileChannel channel;
        FileLock lock;
        int shared;
        boolean exclusive;
    }

    private final Path key;
    private final boolean exclusive;
    private boolean closed;

    private DatastoreLock(Path key, boolean exclusive) {
        this.key = key;
        this.exclusive = exclusive;
    }

    /**
     * Takes the shared (writer) lock on the datastore at {@code root}.
     *
     * @throws LockedException if another process holds it exclusively (GC), or GC holds it in this JVM
     * @throws IOException     if {@code <root>/.lock} cannot be opened
     */
    public static DatastoreLock shared(Path root) throws IOException {
        return acquire(root, false);
    }

    /**
     * Takes the exclusive (garbage collection) lock on the datastore at {@code root}.
     *
     * @throws LockedException if any other holder exists, in this JVM or another process
     * @throws IOException     if {@code <root>/.lock} cannot be opened
     */
    public static DatastoreLock exclusive(Path root) throws IOException {
        return acquire(root, true);
    }

    private static DatastoreLock acquire(Path root, boolean exclusive) throws IOException {
        Path key = root.toRealPath();
        String what = "datastore " + key;
        synchronized (HOLDERS) {
            Holder h = HOLDERS.get(key);
            if (h != null) {
                if (h.exclusive) {
                    throw new LockedException(what, "garbage collection in this process");
                }
                if (exclusive) {
                    throw new LockedException(what, h.shared + " backup writer(s) in this process");
                }
                h.shared++;
                return new DatastoreLock(key, false);
            }
            FileChannel ch = openLockFile(key.resolve(LOCK_FILE), exclusive);
            FileLock lock;
            try {
                lock = ch.tryLock(0, Long.MAX_VALUE, !exclusive);
            } catch (OverlappingFileLockException e) {
                ch.close();
                throw new LockedException(what, "this process (a lock on " + LOCK_FILE + " taken outside DatastoreLock)");
            } catch (IOException | RuntimeException e) {
                ch.close();
                throw e;
            }
            if (lock == null) {
                ch.close();
                throw new LockedException(what, exclusive
                        ? "another process (backup, sync or garbage collection running?)"
                        : "another process (garbage collection running?)");
            }
            h = new Holder();
            h.channel = ch;
            h.lock = lock;
            h.exclusive = exclusive;
            h.shared = exclusive ? 0 : 1;
            HOLDERS.put(key, h);
            return new DatastoreLock(key, exclusive);
        }
    }

    private static FileChannel openLockFile(Path file, boolean exclusive) throws IOException {
        try {
            return FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.CREATE);
        } catch (AccessDeniedException e) {
            if (exclusive) {
                throw e;
            }
            // a shared (read) lock only needs a descriptor open for reading
            return FileChannel.open(file, StandardOpenOption.READ);
        }
    }

    /** Canonical path of the locked datastore root. */
    public Path root() {
        return key;
    }

    /** True for the exclusive (GC) lock. */
    public boolean isExclusive() {
        return exclusive;
    }

    /** Number of shared holders of the datastore at {@code root} in this JVM (for diagnostics and tests). */
    public static int sharedHolders(Path root) throws IOException {
        synchronized (HOLDERS) {
            Holder h = HOLDERS.get(root.toRealPath());
            return h == null ? 0 : h.shared;
        }
    }

    /** Releases this hold; the file lock goes when the last in-process holder closes. Idempotent. */
    @Override
    public void close() throws IOException {
        synchronized (HOLDERS) {
            if (closed) {
                return;
            }
            closed = true;
            Holder h = HOLDERS.get(key);
            if (h == null) {
                return;
            }
            if (!exclusive && --h.shared > 0) {
                return;
            }
            HOLDERS.remove(key);
            try {
                h.lock.release();
            } finally {
                h.channel.close();
            }
        }
    }
}
