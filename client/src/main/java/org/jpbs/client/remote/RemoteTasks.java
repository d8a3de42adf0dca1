package org.jpbs.client.remote;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.function.Consumer;
import org.jpbs.client.http.Query;

/**
 * Server tasks over the REST API ({@code /api2/json/nodes/localhost/tasks}): list, log, status,
 * stop, and following a task's log to its end as proxmox-backup-client does after starting a
 * garbage collection, prune or verify.
 *
 * <p>Log paging: PBS numbers the lines from 1 and {@code start} is the number of the first line
 * returned. The follower asks from the last line it printed and skips lines it has already
 * printed (by {@code n}), so that it neither loses nor repeats a line even with a server that
 * counts {@code start} from 0; while the task is {@code active} it polls once a second.
 */
public final class RemoteTasks {
    /** Lines per log request, as the PBS client. */
    public static final int PAGE = 500;
    private static final String BASE = "/api2/json/nodes/localhost/tasks";

    private final PbsClient pbs;
    private final long pollMillis;

    /** Tasks of this client's server, polling a running task's log every second. */
    public RemoteTasks(PbsClient pbs) {
        this(pbs, 1000);
    }

    /** As {@link #RemoteTasks(PbsClient)} with another poll interval. */
    public RemoteTasks(PbsClient pbs, long pollMillis) {
        this.pbs = pbs;
        this.pollMillis = pollMillis;
    }

    /** The end of a task: its {@code exitstatus} ({@code OK}, {@code WARNINGS: n}, or the error). */
    public record Outcome(String upid, String exitStatus) {
        /** True for {@code OK} and {@code WARNINGS: n}. */
        public boolean ok() {
            return exitStatus != null && (exitStatus.equals("OK") || exitStatus.startsWith("WARNINGS"));
        }
    }

    private static String path(String upid) {
        return BASE + "/" + Query.encode(upid);
    }

    /**
     * {@code GET .../tasks?running=&start=0&limit=&userfilter=&store=}: the {@code data} array.
     *
     * @param all        also stopped tasks
     * @param limit      at most this many
     * @param userfilter only this user's tasks, or null
     * @param store      only this datastore's tasks, or null
     */
    public JsonNode list(boolean all, int limit, String userfilter, String store) throws IOException {
        Query q = Query.of().add("running", all ? "false" : "true").add("start", 0).add("limit", limit)
                .add("userfilter", userfilter).add("store", store);
        return pbs.get(BASE, q);
    }

    /** {@code GET .../tasks/{upid}/status}. */
    public JsonNode status(String upid) throws IOException {
        return pbs.get(path(upid) + "/status", Query.of());
    }

    /** {@code DELETE .../tasks/{upid}}: asks the task to stop. */
    public void stop(String upid) throws IOException {
        pbs.delete(path(upid), Query.of());
    }

    /**
     * Prints a task's log line by line until the task has ended and every line was printed,
     * then reads its status.
     *
     * @param stripDate drop the {@code 2024-01-02T03:04:05+00:00: } prefix, as the PBS client does
     * @param out       receives each line
     */
    public Outcome follow(String upid, boolean stripDate, Consumer<String> out) throws IOException, InterruptedException {
        long printed = 0;
        while (true) {
            Query q = Query.of().add("start", Math.max(1, printed)).add("limit", PAGE).add("test-status", "true");
            JsonNode r = pbs.getRaw(path(upid) + "/log", q);
            boolean active = r.path("active").asBoolean(false);
            long total = r.path("total").asLong(0);
            int fresh = 0;
            for (JsonNode item : r.path("data")) {
                long n = item.path("n").asLong();
                if (n <= printed) {
                    continue;
                }
                String t = item.path("t").asText("");
                out.accept(stripDate && t.length() > 27 && t.startsWith(": ", 25) ? t.substring(27) : t);
                printed = n;
                fresh++;
            }
            if (printed >= total && !active) {
                break;
            }
            if (fresh == 0) {
                if (!active) {
                    break;
                }
                Thread.sleep(pollMillis);
            }
        }
        JsonNode st = status(upid);
        return new Outcome(upid, st.path("exitstatus").asText(null));
    }
}
