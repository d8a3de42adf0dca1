package org.jpbs.datastore.lock;

import java.nio.file.Path;

/**
 * Helper run in a second JVM by {@link DatastoreLockTest}: takes the lock given by
 * {@code args[1]} ({@code exclusive} or {@code shared}) on the datastore {@code args[0]},
 * prints {@code LOCKED}, and holds it until its stdin is closed or a line is read.
 */
public final class LockHolderMain {
    private LockHolderMain() {}

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        try (DatastoreLock lock = "shared".equals(args[1]) ? DatastoreLock.shared(root) : DatastoreLock.exclusive(root)) {
            System.out.println("LOCKED " + (lock.isExclusive() ? "exclusive" : "shared"));
            System.out.flush();
            System.in.read();
        }
        System.out.println("RELEASED");
    }
}
