package org.jpbs.datastore.lock;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A non-blocking exclusive lock on a path, valid inside this JVM only (used for manifest
 * updates). Keys are absolute, normalized paths. Group and snapshot locks, which must exclude
 * other processes too, are {@link DirLock}s.
 */
public final class InProcessLock implements AutoCloseable {
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

    private final Path key;
    private boolean released;

    private InProcessLock(Path key) {
        this.key = key;
    }

    /**
     * Takes the lock on {@code path} or fails at once.
     *
     * @param path   the locked path (made absolute and normalized)
     * @param what   for the error message, e.g. {@code "backup group vm/100"}
     * @param holder for the error message, e.g. {@code "another backup in this process"}
     * @throws LockedException if the path is already locked in this JVM
     */
    public static InProcessLock tryLock(Path path, String what, String holder) throws LockedException {
        Path key = path.toAbsolutePath().normalize();
        if (!HELD.add(key)) {
            throw new LockedException(what, holder);
        }
        return new InProcessLock(key);
    }

    /** True if {@code path} is currently locked in this JVM. */
    public static boolean isLocked(Path path) {
        return HELD.contains(path.toAbsolutePath().normalize());
    }

    /** The locked path. */
    public Path path() {
        return key;
    }

    /** Releases the lock; calling it again does nothing. */
    @Override
    public synchronized void close() {
        if (!released) {
            released = true;
            HELD.remove(key);
        }
    }
}
