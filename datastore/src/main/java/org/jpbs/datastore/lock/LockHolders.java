package org.jpbs.datastore.lock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which processes hold POSIX record locks on a file, from Linux's {@code /proc/locks}. Garbage
 * collection uses it to find writers that hold the datastore's {@code .lock} shared without
 * being registered in the {@link WriterRegistry} (a PBS backup running on the same datastore):
 * their start time is unknown, so GC must not run.
 *
 * <p>Lines look like {@code 12: POSIX  ADVISORY  READ 4711 08:01:1234567 0 EOF}; waiters
 * ({@code 12: -> POSIX …}) are skipped. The device is printed as hex {@code major:minor}.
 */
public final class LockHolders {
    private LockHolders() {}

    /** {@link #holders(Path, Path)} on the real {@code /proc/locks}. */
    public static Optional<List<Long>> holders(Path file) {
        return holders(file, Path.of("/proc/locks"));
    }

    /**
     * The pids of the POSIX locks on {@code file} (duplicates possible), or empty if that cannot
     * be told (no {@code /proc/locks}, no {@code unix:} attributes).
     */
    static Optional<List<Long>> holders(Path file, Path procLocks) {
        long ino;
        long dev;
        List<String> lines;
        try {
            ino = ((Number) Files.getAttribute(file, "unix:ino")).longValue();
            dev = ((Number) Files.getAttribute(file, "unix:dev")).longValue();
            lines = Files.readAllLines(procLocks);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return Optional.empty();
        }
        long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & 0xfffff000L);
        long minor = (dev & 0xff) | ((dev >>> 12) & 0xffffff00L);
        String want = String.format("%02x:%02x:%d", major, minor, ino);
        List<Long> pids = new ArrayList<>();
        for (String line : lines) {
            String[] t = line.trim().split("\\s+");
            if (t.length < 6 || "->".equals(t[1]) || !"POSIX".equals(t[1])) {
                continue;
            }
            if (!t[5].equals(want)) {
                continue;
            }
            try {
                pids.add(Long.parseLong(t[4]));
            } catch (NumberFormatException e) {
                // not a pid: ignore the line
            }
        }
        return Optional.of(pids);
    }
}
