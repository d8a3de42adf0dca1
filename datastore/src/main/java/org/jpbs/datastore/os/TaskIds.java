package org.jpbs.datastore.os;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.jpbs.core.api.Upid;

/**
 * Makes task ids ({@link Upid}) for this process, as PBS does for its workers: node = short
 * host name, pid, process start time in clock ticks since boot (field 22 of
 * {@code /proc/self/stat}, 0 if unreadable), a per-process task counter and the start time.
 */
public final class TaskIds {
    private static final AtomicLong COUNTER = new AtomicLong();
    private static final long PSTART = readPstart();

    private TaskIds() {}

    /**
     * A new UPID for a task of this process.
     *
     * @param type      worker type, e.g. {@code garbage_collection}
     * @param workerId  worker id (usually the datastore name)
     * @param authId    who runs it, e.g. {@code root@pam}
     * @param startTime task start, epoch seconds
     */
    public static Upid next(String type, String workerId, String authId, long startTime) {
        return new Upid(node(), ProcessHandle.current().pid() & 0xffff_ffffL, PSTART,
                COUNTER.getAndIncrement() & 0xffff_ffffL, startTime & 0xffff_ffffL, type, workerId, authId);
    }

    /** Short host name (up to the first dot), {@code localhost} if unknown. */
    public static String node() {
        String h = null;
        try {
            h = Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.UTF_8).trim();
        } catch (IOException | RuntimeException e) {
            try {
                h = InetAddress.getLocalHost().getHostName();
            } catch (IOException e2) {
                h = null;
            }
        }
        if (h == null || h.isEmpty()) {
            return "localhost";
        }
        int dot = h.indexOf('.');
        return (dot > 0 ? h.substring(0, dot) : h).replace(':', '_');
    }

    private static long readPstart() {
        try {
            String s = Files.readString(Path.of("/proc/self/stat"), StandardCharsets.US_ASCII);
            // fields after the command name "(...)" start with field 3 (state)
            String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[22 - 3]) & 0xffff_ffffL;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
