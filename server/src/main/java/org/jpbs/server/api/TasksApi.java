package org.jpbs.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.jpbs.core.api.Upid;
import org.jpbs.datastore.task.TaskFilter;
import org.jpbs.datastore.task.TaskInfo;
import org.jpbs.datastore.task.TaskManager;
import org.jpbs.datastore.task.TaskState;
import org.jpbs.server.auth.Authid;
import org.jpbs.server.auth.Privilege;
import org.jpbs.server.routing.ApiParams;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.HiddenPaths;
import org.jpbs.server.http.RestResponse;

/**
 * {@code /api2/json/nodes/{node}/tasks} ({@code docs/datastore-config.md#tasks}; vectors
 * {@code real-pbs/api/tasks.*}): the task list with its filters ({@code {"total":N,"data":[{"upid",
 * "node","pid","pstart","starttime","worker_type","worker_id","user","endtime"?,"status"?}]}},
 * snake_case keys, {@code node} is {@code localhost} as PBS answers), {@code {upid}} (subdirs),
 * {@code {upid}/status}, {@code {upid}/log} (paged, {@code test-status}, {@code download}) and
 * {@code DELETE {upid}} (stop). Any node name is accepted: there is only this one.
 *
 * <p>Permissions: {@code Sys.Audit} on {@code /system/tasks} sees every task, others only their
 * own (a user also those of its tokens); stopping another's task needs {@code Sys.Modify}.
 * Log lines and exit statuses are answered without server paths ({@link HiddenPaths}); the
 * files keep them. Stateless.
 */
final class TasksApi {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final Pattern NODE = Pattern.compile("[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?");
    private static final List<String> TASKS_PATH = List.of("system", "tasks");

    private TasksApi() {}

    /** Checks the {@code {node}} path variable (a host name). */
    static String checkNode(String node) {
        if (!NODE.matcher(node).matches()) {
            throw ApiException.badParam("node", "value does not match the regex pattern");
        }
        return node;
    }

    private static boolean audit(Access acc) {
        return (acc.auth().privileges(acc.authid(), TASKS_PATH) & Privilege.SYS_AUDIT.bit()) != 0;
    }

    /** The caller started it, or the caller is the user whose token started it. */
    private static boolean owns(Access acc, Upid u) {
        if (u.authId().equals(acc.authid())) {
            return true;
        }
        try {
            Authid me = Authid.parse(acc.authid());
            return !me.isToken() && u.user().equals(me.toString());
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The {@code statusfilter} values (repeatable, each a comma-separated list of ok, warning, error, unknown). */
    static Set<TaskState.Kind> statusFilter(ApiParams p) {
        Set<TaskState.Kind> status = EnumSet.noneOf(TaskState.Kind.class);
        for (String v : p.all("statusfilter")) {
            for (String one : v.split(",")) {
                status.add(switch (one.strip()) {
                    case "ok" -> TaskState.Kind.OK;
                    case "warning" -> TaskState.Kind.WARNING;
                    case "error" -> TaskState.Kind.ERROR;
                    case "unknown" -> TaskState.Kind.UNKNOWN;
                    default -> throw ApiException.badParam("statusfilter", "value '" + one + "' is not defined in the enumeration.");
                });
            }
        }
        return status;
    }

    /** {@code GET nodes/{node}/tasks}. */
    static RestResponse list(Access acc, TaskManager tasks, ApiParams p) {
        long start = p.optInteger("start", 0, Integer.MAX_VALUE).orElse(0L);
        long limit = p.optInteger("limit", 0, Integer.MAX_VALUE).orElse(50L);
        Set<TaskState.Kind> status = statusFilter(p);
        Optional<String> store = p.opt("store").map(ApiParams::store);
        TaskFilter all = new TaskFilter(0, 0, store.orElse(null), p.bool("running", false), p.bool("errors", false),
                p.opt("userfilter").orElse(null), p.optInteger("since", 0, Long.MAX_VALUE).orElse(null),
                p.optInteger("until", 0, Long.MAX_VALUE).orElse(null), p.opt("typefilter").orElse(null), status);
        boolean everything = audit(acc);
        List<TaskInfo> visible = tasks.list(all).tasks().stream().filter(t -> everything || owns(acc, t.upid())).toList();
        ArrayNode data = F.arrayNode();
        int to = limit == 0 ? visible.size() : (int) Math.min(visible.size(), start + limit);
        for (int i = (int) Math.min(start, visible.size()); i < to; i++) {
            data.add(item(visible.get(i)));
        }
        ObjectNode o = F.objectNode();
        o.put("total", visible.size());
        o.set("data", data);
        return RestResponse.json(o);
    }

    private static ObjectNode item(TaskInfo t) {
        Upid u = t.upid();
        ObjectNode o = F.objectNode();
        o.put("upid", u.toString());
        o.put("node", "localhost");
        o.put("pid", u.pid());
        o.put("pstart", u.pstart());
        o.put("starttime", u.startTime());
        o.put("worker_type", u.workerType());
        o.put("worker_id", u.workerId());
        o.put("user", u.authId());
        if (!t.running()) {
            o.put("endtime", t.state().endTime());
            o.put("status", HiddenPaths.hide(t.state().text()));
        }
        return o;
    }

    /** Parses the {@code {upid}} path variable (400 {@code "parameter verification failed - 'upid': ..."}). */
    static Upid upid(String s) {
        try {
            return Upid.parse(s);
        } catch (IllegalArgumentException e) {
            throw ApiException.badParam("upid", e.getMessage());
        }
    }

    /** The task, after the permission check; 400 if this server does not know it. */
    private static TaskInfo find(Access acc, TaskManager tasks, Upid u) {
        if (!owns(acc, u) && !audit(acc)) {
            throw new ApiException(403, "permission check failed");
        }
        return tasks.info(u).orElseThrow(() -> ApiException.badRequest("no such task '" + u + "'"));
    }

    /** {@code GET nodes/{node}/tasks/{upid}}: the subdirectories. */
    static RestResponse subdirs(Access acc, TaskManager tasks, String upidText, ApiParams p) {
        find(acc, tasks, upid(upidText));
        ArrayNode a = F.arrayNode();
        a.addObject().put("subdir", "log");
        a.addObject().put("subdir", "status");
        return RestResponse.data(a);
    }

    /** {@code GET nodes/{node}/tasks/{upid}/status}. */
    static RestResponse status(Access acc, TaskManager tasks, String upidText, ApiParams p) {
        Upid u = upid(upidText);
        TaskInfo t = find(acc, tasks, u);
        ObjectNode o = F.objectNode();
        o.put("upid", u.toString());
        o.put("node", u.node());
        o.put("pid", u.pid());
        o.put("pstart", u.pstart());
        o.put("starttime", u.startTime());
        o.put("type", u.workerType());
        o.put("id", u.workerId());
        o.put("user", u.user());
        if (u.tokenName() != null) {
            o.put("tokenid", u.tokenName());
        }
        o.put("status", t.running() ? "running" : "stopped");
        if (!t.running()) {
            o.put("exitstatus", HiddenPaths.hide(t.state().text()));
        }
        return RestResponse.data(o);
    }

    /**
     * {@code GET nodes/{node}/tasks/{upid}/log} ({@code start}, {@code limit}, {@code test-status},
     * {@code download}), as PBS: lines are numbered from 1 ({@code n}), {@code start} is the number
     * of the first line returned ({@code 0} and {@code 1} both start at line 1), {@code limit}
     * (default 50) the most lines, 0 = all; {@code total} is the number of lines in the log and,
     * with {@code test-status}, {@code active} whether the task still runs.
     */
    static RestResponse log(Access acc, TaskManager tasks, String upidText, ApiParams p) throws IOException {
        long start = p.optInteger("start", 0, Long.MAX_VALUE).orElse(0L);
        long limit = p.optInteger("limit", 0, Long.MAX_VALUE).orElse(50L);
        boolean testStatus = p.bool("test-status", false);
        boolean download = p.bool("download", false);
        Upid u = upid(upidText);
        find(acc, tasks, u);
        TaskManager.LogPage page;
        try {
            // PBS numbers lines from 1 and `start` is the number of the first line wanted
            // (0 and 1 both mean the first line); the task manager counts from 0
            page = tasks.log(u, download ? 0 : Math.max(start, 1) - 1, download ? 0 : limit);
        } catch (NoSuchFileException e) {
            throw ApiException.badRequest("no log for task '" + u + "'");
        }
        if (download) {
            StringBuilder sb = new StringBuilder();
            page.lines().forEach(l -> sb.append(HiddenPaths.hide(l)).append('\n'));
            return new RestResponse(200, "text/plain", sb.toString().getBytes(StandardCharsets.UTF_8),
                    Map.of("content-disposition", "attachment; filename=\"task-" + u.workerType() + ".log\""));
        }
        ArrayNode data = F.arrayNode();
        long n = page.start();
        for (String line : page.lines()) {
            data.addObject().put("n", ++n).put("t", HiddenPaths.hide(line));
        }
        ObjectNode o = F.objectNode();
        o.set("data", data);
        o.put("total", page.total());
        o.put("success", 1);
        if (testStatus) {
            o.put("active", page.active());
        }
        return RestResponse.json(o);
    }

    /** {@code DELETE nodes/{node}/tasks/{upid}}: asks a running task to stop; null. */
    static RestResponse stop(Access acc, TaskManager tasks, String upidText, ApiParams p) {
        Upid u = upid(upidText);
        if (!owns(acc, u) && (acc.auth().privileges(acc.authid(), TASKS_PATH) & Privilege.SYS_MODIFY.bit()) == 0) {
            throw new ApiException(403, "permission check failed");
        }
        find(acc, tasks, u);
        tasks.stop(u);
        return RestResponse.data(F.nullNode());
    }
}
