package org.jpbs.datastore.lock;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jpbs.datastore.os.FlockFile;

/**
 * A non-blocking shared or exclusive lock on a backup group or snapshot directory, as PBS 3.x
 * takes it: {@code flock(2)} on the directory itself ({@code docs/protocol.md#backup-upgrade} step 6, {@code docs/protocol.md#reader-session}, {@code docs/gc.md#prune}, {@code docs/gc.md#verify}). No lock file is created, so a datastore
 * moves between jpbs and PBS unchanged, and jpbs and a PBS running on the same datastore exclude
 * each other. Who takes what:
 * <ul>
 *   <li>backup writer: exclusive on its group, shared on its base (previous) snapshot;</li>
 *   <li>reader session and verify: shared on the snapshot;</li>
 *   <li>forget/prune of a snapshot: exclusive on the snapshot (fails while read, verified or used as a base);</li>
 *   <li>removing an empty group: exclusive on the group.</li>
 * </ul>
 *
 * <p>A {@code flock} belongs to its open file description, so two locks taken in one JVM conflict
 * like locks of two processes, and the kernel drops the lock when the process dies (a killed
 * server leaves no stale lock). An in-process registry on top only names the holder in the
 * error ({@code "... (reader in this process)"}) and, where the native binding is unavailable,
 * is the whole lock (in-process only; {@link #crossProcess()} is then false).
 *
 * <p>Every failure is immediate: {@link LockedException} {@code "<what> is locked by another
 * operation (<who>)"}. Use with try-with-resources; {@link #close()} is idempotent.
 */
public final class DirLock implements AutoCloseable {
    /** In-process holders per normalized path; guarded by itself. */
    private static final Map<Path, Holders> HELD = new HashMap<>();

    private static final class Holders {
        final List<String> shared = new ArrayList<>();
        String exclusive;
    }

    private final Path key;
    private final boolean exclusive;
    private final String purpose;
    private FlockFile flock;
    private boolean closed;

    private DirLock(Path key, boolean exclusive, String purpose, FlockFile flock) {
        this.key = key;
        this.exclusive = exclusive;
        this.purpose = purpose;
        this.flock = flock;
    }

    /** True if locks exclude other processes ({@code flock} through FFM works), false if in-process only. */
    public static boolean crossProcess() {
        return FlockFile.available();
    }

    /**
     * Takes an exclusive lock on directory {@code dir}.
     *
     * @param what    the locked thing for the message, e.g. {@code "backup group vm/100"}
     * @param purpose what this holder does, for other holders' messages, e.g. {@code "backup"}
     * @throws LockedException if anyone (this JVM or another process) holds a lock on it
     * @throws java.nio.file.NoSuchFileException if {@code dir} does not exist
     * @throws IOException on other errors
     */
    public static DirLock exclusive(Path dir, String what, String purpose) throws IOException {
        return acquire(dir, true, what, purpose);
    }

    /**
     * Takes a shared lock on directory {@code dir}.
     *
     * @throws LockedException if anyone holds it exclusively
     * @throws java.nio.file.NoSuchFileException if {@code dir} does not exist
     * @throws IOException on other errors
     * @see #exclusive(Path, String, String)
     */
    public static DirLock shared(Path dir, String what, String purpose) throws IOException {
        return acquire(dir, false, what, purpose);
    }

    /**
     * True if someone holds {@code dir} exclusively right now (probed with a shared lock that is
     * released at once); false if it is free, only share-locked, or does not exist.
     */
    public static boolean isExclusivelyLocked(Path dir) throws IOException {
        try (DirLock l = shared(dir, dir.toString(), "probe")) {
            return false;
        } catch (LockedException e) {
            return true;
        } catch (java.nio.file.NoSuchFileException e) {
            return false;
        }
    }

    private static DirLock acquire(Path dir, boolean exclusive, String what, String purpose) throws IOException {
        Path key = dir.toAbsolutePath().normalize();
        synchronized (HELD) {
            Holders h = HELD.get(key);
            if (h != null) {
                if (h.exclusive != null) {
                    throw locked(what, h.exclusive + " in this process");
                }
                if (exclusive && !h.shared.isEmpty()) {
                    throw locked(what, String.join(", ", h.shared.stream().distinct().toList()) + " in this process");
                }
            }
            FlockFile f = null;
            if (FlockFile.available()) {
                f = FlockFile.open(key);
                boolean got;
                try {
                    got = f.tryLock(exclusive);
                } catch (IOException | RuntimeException e) {
                    f.close();
                    throw e;
                }
                if (!got) {
                    f.close();
                    throw locked(what, "in another process");
                }
            } else if (!java.nio.file.Files.isDirectory(key)) {
                throw new java.nio.file.NoSuchFileException(key.toString(), null, what + " does not exist");
            }
            h = HELD.computeIfAbsent(key, k -> new Holders());
            if (exclusive) {
                h.exclusive = purpose;
            } else {
                h.shared.add(purpose);
            }
            return new DirLock(key, exclusive, purpose, f);
        }
    }

    private static LockedException locked(String what, String who) {
        return new LockedException(what, "another operation (" + who + ")");
    }

    /** The locked directory (absolute, normalized, as it was named when locked). */
    public Path path() {
        return key;
    }

    /** True for an exclusive lock. */
    public boolean isExclusive() {
        return exclusive;
    }

    /** Releases the lock. Idempotent. */
    @Override
    public void close() throws IOException {
        synchronized (HELD) {
            if (closed) {
                return;
            }
            closed = true;
            Holders h = HELD.get(key);
            if (h != null) {
                if (exclusive) {
                    h.exclusive = null;
                } else {
                    h.shared.remove(purpose);
                }
                if (h.exclusive == null && h.shared.isEmpty()) {
                    HELD.remove(key);
                }
            }
            if (flock != null) {
                FlockFile f = flock;
                flock = null;
                f.close();
            }
        }
    }

    @Override
    public String toString() {
        return "DirLock[" + key + ", " + (exclusive ? "exclusive" : "shared") + ", " + purpose + "]";
    }
}
