package org.jpbs.datastore.lock;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jpbs.datastore.os.PosixLockFile;

/**
 * The datastore process lock: a POSIX record lock ({@code fcntl}, whole file) on
 * {@code <root>/.lock}, as PBS's ProcessLocker takes it ({@code docs/formats.md#chunk-store-chunks}, {@code docs/gc.md#why-a-backup-running-next-to-gc-never-loses-a-chunk}). Backup writers hold it <b>shared</b>
 * for their whole run, and so does jpbs garbage collection (which learns the writers of other
 * processes from the {@link WriterRegistry}); a PBS GC takes it <b>exclusive</b>, so it never runs
 * while jpbs writes or collects, and the reverse. On Linux
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
 * <p>{@link #forGc} (no longer used by {@code GarbageCollector}, which takes the shared lock)
 * is PBS's GC lock: exclusive against other processes but, as in PBS,
 * coexisting with the shared holders of this JVM (their start times give GC its cutoff,
 * {@link #oldestSharedSince}). With native access the process's read lock is converted in
 * place to a write lock ({@link PosixLockFile}) and back when GC ends; without it, GC refuses
 * while writers of this JVM hold the lock.
 *
 * <p>Every request is non-blocking and fails with {@link LockedException}. Use with
 * try-with-resources; {@link #close()} is idempotent. Never open {@code .lock} elsewhere in
 * the JVM while a lock is held.
 */
public final class DatastoreLock implements AutoCloseable {
    /** Name of the lock file in the datastore root. */
    public static final String LOCK_FILE = ".lock";

    private static final Map<Path, Holder> HOLDERS = new HashMap<>(); // guarded by itself

    private enum Kind { SHARED, EXCLUSIVE, GC }

    /** The process-wide state of one datastore's lock file; all fields guarded by {@link #HOLDERS}. */
    private static final class Holder {
        PosixLockFile nativeLock;  // either this ...
        FileChannel channel;       // ... or a Java FileLock on this channel
        FileLock lock;
        int shared;
        boolean exclusive;
        boolean gc;
        final TreeMap<Instant, Integer> sharedSince = new TreeMap<>();

        boolean isEmpty() {
            return shared == 0 && !exclusive && !gc;
        }

        void release() throws IOException {
            if (nativeLock != null) {
                nativeLock.close();
            } else {
                try {
                    lock.release();
                } finally {
                    channel.close();
                }
            }
        }
    }

    private final Path key;
    private final Kind kind;
    private final Instant since;
    private boolean closed;

    private DatastoreLock(Path key, Kind kind, Instant since) {
        this.key = key;
        this.kind = kind;
        this.since = since;
    }

    /**
     * Takes the shared (writer) lock on the datastore at {@code root}.
     *
     * @throws LockedException if another process holds it exclusively (GC), or an
     *                         {@link #exclusive} holder exists in this JVM
     * @throws IOException     if {@code <root>/.lock} cannot be opened
     */
    public static DatastoreLock shared(Path root) throws IOException {
        return acquire(root, Kind.SHARED);
    }

    /**
     * Takes the exclusive lock on the datastore at {@code root}, excluding every other holder
     * in this JVM and in other processes.
     *
     * @throws LockedException if any other holder exists, in this JVM or another process
     * @throws IOException     if {@code <root>/.lock} cannot be opened
     */
    public static DatastoreLock exclusive(Path root) throws IOException {
        return acquire(root, Kind.EXCLUSIVE);
    }

    /**
     * Takes the garbage-collection lock ({@code docs/gc.md#why-a-backup-running-next-to-gc-never-loses-a-chunk}): exclusive
     * against other processes, compatible with shared holders (backup writers) of this JVM,
     * which may also start while it is held. At most one per datastore and JVM.
     *
     * @throws LockedException if another process holds the lock (shared or exclusive), GC or an
     *                         exclusive holder exists in this JVM, or (without native access)
     *                         writers of this JVM hold it
     * @throws IOException     if {@code <root>/.lock} cannot be opened
     */
    public static DatastoreLock forGc(Path root) throws IOException {
        return acquire(root, Kind.GC);
    }

    private static DatastoreLock acquire(Path root, Kind kind) throws IOException {
        Path key = root.toRealPath();
        String what = "datastore " + key;
        Instant now = Instant.now();
        synchronized (HOLDERS) {
            Holder h = HOLDERS.get(key);
            if (h != null) {
                if (h.exclusive) {
                    throw new LockedException(what, "garbage collection in this process");
                }
                switch (kind) {
                    case EXCLUSIVE -> throw new LockedException(what, h.gc ? "garbage collection in this process"
                            : h.shared + " backup writer(s) in this process");
                    case GC -> {
                        if (h.gc) {
                            throw new LockedException(what, "garbage collection in this process");
                        }
                        if (h.nativeLock == null) {
                            throw new LockedException(what, h.shared
                                    + " backup writer(s) in this process (no native fcntl to upgrade the lock)");
                        }
                        if (!h.nativeLock.trySet(PosixLockFile.Mode.EXCLUSIVE)) {
                            throw new LockedException(what, "another process (backup or sync running?)");
                        }
                        h.gc = true;
                    }
                    case SHARED -> {
                        h.shared++;
                        h.sharedSince.merge(now, 1, Integer::sum);
                    }
                }
                return new DatastoreLock(key, kind, now);
            }
            h = new Holder();
            boolean write = kind != Kind.SHARED;
            boolean got;
            if (PosixLockFile.available()) {
                h.nativeLock = PosixLockFile.open(key.resolve(LOCK_FILE), !write);
                try {
                    got = h.nativeLock.trySet(write ? PosixLockFile.Mode.EXCLUSIVE : PosixLockFile.Mode.SHARED);
                } catch (IOException | RuntimeException e) {
                    h.nativeLock.close();
                    throw e;
                }
                if (!got) {
                    h.nativeLock.close();
                }
            } else {
                FileChannel ch = openLockFile(key.resolve(LOCK_FILE), write);
                FileLock lock;
                try {
                    lock = ch.tryLock(0, Long.MAX_VALUE, !write);
                } catch (OverlappingFileLockException e) {
                    ch.close();
                    throw new LockedException(what, "this process (a lock on " + LOCK_FILE + " taken outside DatastoreLock)");
                } catch (IOException | RuntimeException e) {
                    ch.close();
                    throw e;
                }
                got = lock != null;
                if (!got) {
                    ch.close();
                }
                h.channel = ch;
                h.lock = lock;
            }
            if (!got) {
                throw new LockedException(what, write
                        ? "another process (backup, sync or garbage collection running?)"
                        : "another process (garbage collection running?)");
            }
            switch (kind) {
                case SHARED -> {
                    h.shared = 1;
                    h.sharedSince.put(now, 1);
                }
                case EXCLUSIVE -> h.exclusive = true;
                case GC -> h.gc = true;
            }
            HOLDERS.put(key, h);
            return new DatastoreLock(key, kind, now);
        }
    }

    private static FileChannel openLockFile(Path file, boolean write) throws IOException {
        try {
            return FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.CREATE);
        } catch (AccessDeniedException e) {
            if (write) {
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

    /** True for the exclusive and the garbage-collection lock. */
    public boolean isExclusive() {
        return kind != Kind.SHARED;
    }

    /** When this hold was taken. */
    public Instant since() {
        return since;
    }

    /** Number of shared holders of the datastore at {@code root} in this JVM (for diagnostics and tests). */
    public static int sharedHolders(Path root) throws IOException {
        synchronized (HOLDERS) {
            Holder h = HOLDERS.get(root.toRealPath());
            return h == null ? 0 : h.shared;
        }
    }

    /**
     * When the oldest shared holder (backup writer) of this JVM still holding the datastore's
     * lock took it: PBS's {@code oldest_writer}, which bounds the GC cutoff ({@code docs/gc.md#garbage-collection}). Empty if there is none.
     */
    public static Optional<Instant> oldestSharedSince(Path root) throws IOException {
        synchronized (HOLDERS) {
            Holder h = HOLDERS.get(root.toRealPath());
            return h == null || h.sharedSince.isEmpty() ? Optional.empty() : Optional.of(h.sharedSince.firstKey());
        }
    }

    /**
     * Releases this hold. The file lock goes when the last in-process holder closes; when GC
     * closes while writers remain, the process's lock is downgraded to shared. Idempotent.
     */
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
            switch (kind) {
                case SHARED -> {
                    h.shared--;
                    h.sharedSince.computeIfPresent(since, (k, n) -> n > 1 ? n - 1 : null);
                }
                case EXCLUSIVE -> h.exclusive = false;
                case GC -> {
                    h.gc = false;
                    if (h.shared > 0 && h.nativeLock != null) {
                        h.nativeLock.trySet(PosixLockFile.Mode.SHARED); // a downgrade never conflicts
                    }
                }
            }
            if (h.isEmpty()) {
                HOLDERS.remove(key);
                h.release();
            }
        }
    }
}
