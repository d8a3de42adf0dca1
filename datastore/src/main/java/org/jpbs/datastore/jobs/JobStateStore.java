package org.jpbs.datastore.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import org.jpbs.core.api.Upid;
import org.jpbs.datastore.os.AtomicFiles;
import org.jpbs.datastore.task.TaskState;

/**
 * The job state files {@code <config>/jobstates/<type>-<id>.json} in PBS's JSON shape
 * ({@code docs/jobs.md#job-state}): {@code {"created":{"time":T}}},
 * {@code {"started":{"upid":"UPID:…"}}} or
 * {@code {"finished":{"upid":"UPID:…","state":{"OK":{"endtime":T}},"updated":null}}} (task states
 * {@code OK}, {@code Warning} with {@code count}, {@code Error} with {@code message},
 * {@code Unknown}). Written atomically. Thread-safe.
 */
public final class JobStateStore {
    /** Directory below the config directory. */
    public static final String DIR = "jobstates";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;

    private JobStateStore(Path dir) {
        this.dir = dir;
    }

    /** The state files of {@code configDir}. */
    public static JobStateStore open(Path configDir) {
        return new JobStateStore(configDir.toAbsolutePath().normalize().resolve(DIR));
    }

    /** The file of a job, e.g. {@code jobstates/prunejob-daily.json}. */
    public Path file(String type, String id) {
        return dir.resolve(type + "-" + id + ".json");
    }

    /**
     * The job's state; a job without a file is {@code Created} 30 seconds before {@code now} (as PBS).
     *
     * @throws IOException if the file cannot be read or is not a job state (the message names it)
     */
    public JobState load(String type, String id, long now) throws IOException {
        Path f = file(type, id);
        byte[] data;
        try {
            data = Files.readAllBytes(f);
        } catch (NoSuchFileException e) {
            return new JobState.Created(now - 30);
        }
        try {
            return fromJson(JSON.readTree(data));
        } catch (IOException | RuntimeException e) {
            throw new IOException(f + ": not a job state: " + e.getMessage(), e);
        }
    }

    /** Writes the job's state (atomically). */
    public void save(String type, String id, JobState state) throws IOException {
        Files.createDirectories(dir);
        AtomicFiles.replaceFile(file(type, id), toJson(state).toString().getBytes(StandardCharsets.UTF_8), true);
    }

    /**
     * Records that the job's schedule changed at {@code now} (PBS {@code update_job_last_run_time}):
     * the next run counts from then. A started state is left alone.
     */
    public void touch(String type, String id, long now) throws IOException {
        JobState s = load(type, id, now);
        save(type, id, switch (s) {
            case JobState.Finished f -> new JobState.Finished(f.upid(), f.state(), now);
            case JobState.Started st -> st;
            case JobState.Created c -> new JobState.Created(now);
        });
    }

    /** Removes the job's state file (when the job is removed). */
    public void remove(String type, String id) throws IOException {
        Files.deleteIfExists(file(type, id));
    }

    /**
     * When the job last ran, for the schedule (PBS {@code last_run_time}): the creation or
     * update time, else the start time of the last task.
     */
    public static long lastRunTime(JobState s) {
        return switch (s) {
            case JobState.Created c -> c.time();
            case JobState.Finished f when f.updated() != null -> f.updated();
            case JobState.Started st -> Upid.parse(st.upid()).startTime();
            case JobState.Finished f -> Upid.parse(f.upid()).startTime();
        };
    }

    static JsonNode toJson(JobState s) {
        JsonNodeFactory n = JsonNodeFactory.instance;
        ObjectNode root = n.objectNode();
        switch (s) {
            case JobState.Created c -> root.putObject("created").put("time", c.time());
            case JobState.Started st -> root.putObject("started").put("upid", st.upid());
            case JobState.Finished f -> {
                ObjectNode o = root.putObject("finished");
                o.put("upid", f.upid());
                ObjectNode state = o.putObject("state");
                TaskState t = f.state();
                switch (t.kind()) {
                    case OK -> state.putObject("OK").put("endtime", t.endTime());
                    case WARNING -> state.putObject("Warning").put("count", warnings(t)).put("endtime", t.endTime());
                    case ERROR -> state.putObject("Error").put("message", t.text()).put("endtime", t.endTime());
                    case UNKNOWN -> state.putObject("Unknown").put("endtime", t.endTime());
                }
                if (f.updated() == null) {
                    o.putNull("updated");
                } else {
                    o.put("updated", f.updated());
                }
            }
        }
        return root;
    }

    private static long warnings(TaskState t) {
        return Long.parseLong(t.text().substring(t.text().indexOf(':') + 1).strip());
    }

    static JobState fromJson(JsonNode root) {
        Map.Entry<String, JsonNode> e = only(root);
        JsonNode v = e.getValue();
        return switch (e.getKey()) {
            case "created" -> new JobState.Created(v.required("time").asLong());
            case "started" -> new JobState.Started(v.required("upid").asText());
            case "finished" -> {
                Map.Entry<String, JsonNode> st = only(v.required("state"));
                long end = st.getValue().path("endtime").asLong();
                TaskState ts = switch (st.getKey().toLowerCase(Locale.ROOT)) {
                    case "ok" -> TaskState.ok(end);
                    case "warning" -> TaskState.warnings(st.getValue().path("count").asLong(), end);
                    case "error" -> TaskState.error(st.getValue().path("message").asText(), end);
                    default -> TaskState.parse("unknown", end);
                };
                JsonNode up = v.get("updated");
                yield new JobState.Finished(v.required("upid").asText(), ts, up == null || up.isNull() ? null : up.asLong());
            }
            default -> throw new IllegalArgumentException("unknown state '" + e.getKey() + "'");
        };
    }

    private static Map.Entry<String, JsonNode> only(JsonNode o) {
        Iterator<Map.Entry<String, JsonNode>> it = o.properties().iterator();
        if (!o.isObject() || !it.hasNext()) {
            throw new IllegalArgumentException("expected an object with one key");
        }
        return it.next();
    }
}
