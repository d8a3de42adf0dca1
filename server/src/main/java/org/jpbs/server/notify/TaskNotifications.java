package org.jpbs.server.notify;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jpbs.core.api.Upid;
import org.jpbs.datastore.task.TaskListener;
import org.jpbs.datastore.task.TaskState;
import org.jpbs.datastore.task.WorkerTask;

/**
 * Turns the end of a task into a notification ({@code docs/notifications.md#events}). The
 * notification {@code type} follows PBS's event types: {@code gc} (worker type
 * {@code garbage_collection}), {@code prune} ({@code prune}, {@code prunejob}),
 * {@code verification} ({@code verify*}, {@code verificationjob}), {@code sync}
 * ({@code syncjob}, {@code sync}, {@code push}, {@code pull}); any other task keeps its worker
 * type ({@code backup}, {@code reader}, ...). Jobs of the first four types notify on every
 * end (severity {@code info}, {@code warning} or {@code error}); other tasks only when they fail
 * or end with warnings. Fields: {@code type}, {@code hostname}, {@code datastore} (the worker
 * id up to its first {@code ':'}), {@code job-id} (for scheduled jobs: the worker id after its
 * last {@code ':'}). The message carries the job type, datastore, UPID, status and the last
 * {@value #EXCERPT_LINES} lines of the task log.
 */
public final class TaskNotifications implements TaskListener {
    /** Lines of the task log quoted in a notification. */
    public static final int EXCERPT_LINES = 50;

    private final Notifier notifier;

    /** @param notifier where notifications go */
    public TaskNotifications(Notifier notifier) {
        this.notifier = notifier;
    }

    @Override
    public void taskEnded(WorkerTask task, TaskState state) {
        Notification n = of(task.upid(), state, excerpt(task), notifier.node());
        if (n != null) {
            notifier.notify(n);
        }
    }

    /** The notification type of a worker type. */
    public static String type(String workerType) {
        return switch (workerType) {
            case "garbage_collection" -> "gc";
            case "prune", "prunejob" -> "prune";
            case "verify", "verify_group", "verify_snapshot", "verificationjob" -> "verification";
            case "syncjob", "sync", "pull", "push" -> "sync";
            default -> workerType;
        };
    }

    /** The notification for a task's end, or null if none is due. */
    static Notification of(Upid upid, TaskState state, String excerpt, String node) {
        String type = type(upid.workerType());
        boolean job = type.equals("gc") || type.equals("prune") || type.equals("verification") || type.equals("sync");
        Severity sev = switch (state.kind()) {
            case OK -> Severity.INFO;
            case WARNING -> Severity.WARNING;
            case ERROR -> Severity.ERROR;
            case UNKNOWN -> Severity.UNKNOWN;
        };
        if (!job && sev == Severity.INFO) {
            return null;
        }
        String wid = upid.workerId() == null ? "" : upid.workerId();
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("type", type);
        fields.put("hostname", node);
        String store = datastore(upid.workerType(), wid);
        if (store != null && !store.isEmpty()) {
            fields.put("datastore", store);
        }
        String jobId = upid.workerType().endsWith("job") && wid.contains(":") ? wid.substring(wid.lastIndexOf(':') + 1) : null;
        if (jobId != null) {
            fields.put("job-id", jobId);
        }
        String outcome = switch (sev) {
            case INFO -> "successful";
            case WARNING -> "finished with warnings";
            default -> "failed";
        };
        String title = title(type, store, wid, upid.workerType()) + " " + outcome;
        StringBuilder msg = new StringBuilder();
        msg.append("Job type:  ").append(type).append('\n');
        if (jobId != null) {
            msg.append("Job ID:    ").append(jobId).append('\n');
        }
        if (store != null) {
            msg.append("Datastore: ").append(store).append('\n');
        }
        msg.append("Host:      ").append(node).append('\n');
        msg.append("Task:      ").append(upid).append('\n');
        msg.append("Status:    ").append(state.text()).append("\n\n");
        msg.append("Task log (last lines):\n\n").append(excerpt);
        return new Notification(sev, title, msg.toString(), fields, state.endTime());
    }

    /**
     * The local datastore of a task from its worker id: the part before the first {@code ':'},
     * for a sync job ({@code <remote>:<remote-store>:<store>:<id>}) the third part; null if none.
     */
    public static String datastore(String workerType, String wid) {
        if (wid == null || wid.isEmpty()) {
            return null;
        }
        String[] parts = wid.split(":", -1);
        return workerType.equals("syncjob") && parts.length == 4 ? parts[2] : parts[0];
    }

    private static String title(String type, String store, String wid, String workerType) {
        String ds = store == null ? "" : " '" + store + "'";
        String[] parts = wid.split(":", -1);
        if (workerType.equals("syncjob") && parts.length == 4) { // as PBS: the remote side names a sync job
            return "Sync remote '" + parts[0] + "' datastore '" + parts[1] + "'";
        }
        return switch (type) {
            case "gc" -> "Garbage Collect Datastore" + ds;
            case "prune" -> "Prune Datastore" + ds;
            case "verification" -> "Verify Datastore" + ds;
            case "sync" -> "Sync Datastore" + ds;
            default -> "Task " + workerType + (wid.isEmpty() ? "" : " " + wid);
        };
    }

    /** The last {@value #EXCERPT_LINES} lines of the task's log. */
    static String excerpt(WorkerTask task) {
        Deque<String> last = new ArrayDeque<>();
        try (BufferedReader r = Files.newBufferedReader(task.logFile(), StandardCharsets.UTF_8)) {
            String l;
            while ((l = r.readLine()) != null) {
                last.addLast(l);
                if (last.size() > EXCERPT_LINES) {
                    last.removeFirst();
                }
            }
        } catch (IOException e) {
            return "(task log not readable: " + e.getMessage() + ")\n";
        }
        StringBuilder sb = new StringBuilder();
        last.forEach(l -> sb.append(l).append('\n'));
        return sb.toString();
    }
}
