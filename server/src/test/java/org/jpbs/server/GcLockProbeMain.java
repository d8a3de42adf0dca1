package org.jpbs.server;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.jpbs.datastore.lock.DatastoreLock;
import org.jpbs.datastore.lock.LockedException;

/**
 * Run in a second JVM by {@link StalledSessionTest}: for each line read from stdin, {@code gc}
 * or {@code exclusive}, tries that lock on the datastore {@code args[0]}
 * ({@link DatastoreLock#forGc} or {@link DatastoreLock#exclusive}), releases it at once and
 * prints {@code LOCKED} or {@code REFUSED: <message>}. Kept running so a probe answers in
 * milliseconds, not a JVM start.
 */
public final class GcLockProbeMain {
    private GcLockProbeMain() {}

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        System.out.println("READY");
        for (String line; (line = in.readLine()) != null; ) {
            try (DatastoreLock lock = line.equals("gc") ? DatastoreLock.forGc(root) : DatastoreLock.exclusive(root)) {
                System.out.println("LOCKED");
            } catch (LockedException e) {
                System.out.println("REFUSED: " + e.getMessage());
            }
            System.out.flush();
        }
    }
}
