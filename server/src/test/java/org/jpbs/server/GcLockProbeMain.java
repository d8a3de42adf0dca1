package org.jpbs.server;

import java.nio.file.Path;
import org.jpbs.datastore.lock.DatastoreLock;
import org.jpbs.datastore.lock.LockedException;

/**
 * Run in a second JVM by {@link StalledSessionTest}: tries the lock a garbage collection takes
 * ({@link DatastoreLock#forGc}) on the datastore {@code args[0]}, prints {@code GC LOCKED} (and
 * releases it) or {@code GC REFUSED: <message>}.
 */
public final class GcLockProbeMain {
    private GcLockProbeMain() {}

    public static void main(String[] args) throws Exception {
        try (DatastoreLock lock = DatastoreLock.forGc(Path.of(args[0]))) {
            System.out.println("GC LOCKED");
        } catch (LockedException e) {
            System.out.println("GC REFUSED: " + e.getMessage());
        }
    }
}
