package org.jpbs.server.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.jpbs.datastore.task.TaskListener;
import org.jpbs.datastore.task.TaskState;
import org.jpbs.datastore.task.WorkerTask;

/**
 * The metrics of one server in Prometheus text format ({@code docs/metrics.md}), kept with
 * Micrometer:
 * <ul>
 * <li>{@code jpbs_tasks_total{type,status}} and {@code jpbs_task_duration_seconds{type,status}}
 *     (count, sum, max) for every ended task ({@code type} = the worker type, e.g.
 *     {@code backup}, {@code reader}, {@code garbage_collection}, {@code verify},
 *     {@code prune}, {@code syncjob}; {@code status} = ok, warning, error, unknown);</li>
 * <li>{@code jpbs_<figure>_total{type,datastore}} for every figure a task recorded
 *     ({@link org.jpbs.datastore.task.TaskLog#record}), e.g. {@code jpbs_backup_bytes_total},
 *     {@code jpbs_restore_bytes_total}, {@code jpbs_gc_removed_chunks_total},
 *     {@code jpbs_sync_bytes_total};</li>
 * <li>{@code jpbs_datastore_total_bytes}, {@code _used_bytes}, {@code _avail_bytes},
 *     {@code jpbs_datastore_chunks}, {@code jpbs_datastore_chunk_bytes} per {@code datastore},
 *     read at scrape time ({@link DatastoreUsage}).</li>
 * </ul>
 * Thread-safe.
 */
public final class ServerMetrics implements TaskListener {
    private static final Pattern FIGURE = Pattern.compile("[a-z][a-z0-9]*(\\.[a-z][a-z0-9]*)*");

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Supplier<List<DatastoreUsage>> usage;
    private final Map<String, DatastoreUsage> last = new ConcurrentHashMap<>();
    private final Set<String> gauged = ConcurrentHashMap.newKeySet();

    /** @param usage reads the datastores' usage (called at every scrape) */
    public ServerMetrics(Supplier<List<DatastoreUsage>> usage) {
        this.usage = usage;
    }

    @Override
    public void taskEnded(WorkerTask task, TaskState state) {
        String type = task.upid().workerType();
        String status = state.kind().filterName();
        Counter.builder("jpbs.tasks").description("Tasks ended, by worker type and status")
                .tags("type", type, "status", status).register(registry).increment();
        Timer.builder("jpbs.task.duration").description("Task run time, by worker type and status")
                .tags("type", type, "status", status).register(registry)
                .record((long) (task.durationSeconds() * 1e9), TimeUnit.NANOSECONDS);
        String wid = task.upid().workerId();
        String store = java.util.Objects.requireNonNullElse(
                org.jpbs.server.notify.TaskNotifications.datastore(type, wid), "");
        task.figures().forEach((name, amount) -> {
            if (FIGURE.matcher(name).matches()) {
                Counter.builder("jpbs." + name).description("Sum of the figure '" + name + "' over ended tasks")
                        .tags(Tags.of("type", type, "datastore", store)).register(registry).increment(amount);
            }
        });
    }

    /** The current metrics in Prometheus text format (version 0.0.4); reads the datastore usage first. */
    public String scrape() {
        refreshUsage();
        return registry.scrape();
    }

    /** The content type of {@link #scrape()}. */
    public static String contentType() {
        return "text/plain; version=0.0.4; charset=utf-8";
    }

    private void refreshUsage() {
        Map<String, DatastoreUsage> now = new ConcurrentHashMap<>();
        for (DatastoreUsage u : usage.get()) {
            now.put(u.name(), u);
        }
        last.keySet().retainAll(now.keySet());
        last.putAll(now);
        for (String name : now.keySet()) {
            if (gauged.add(name)) {
                gauge("jpbs.datastore.total", "bytes", "File system size of the datastore", name, u -> u.total());
                gauge("jpbs.datastore.used", "bytes", "Bytes in use on the datastore's file system", name, u -> u.used());
                gauge("jpbs.datastore.avail", "bytes", "Bytes available on the datastore's file system", name, u -> u.avail());
                gauge("jpbs.datastore.chunks", null, "Chunks in the chunk store at the last garbage collection", name,
                        u -> u.diskChunks().orElse(0L));
                gauge("jpbs.datastore.chunk", "bytes", "Chunk bytes on disk at the last garbage collection", name,
                        u -> u.diskBytes().orElse(0L));
            }
        }
    }

    private void gauge(String name, String unit, String help, String store,
                       java.util.function.ToLongFunction<DatastoreUsage> f) {
        Gauge.builder(name, last, m -> {
            DatastoreUsage u = m.get(store);
            return u == null ? Double.NaN : f.applyAsLong(u);
        }).baseUnit(unit).description(help).tag("datastore", store).register(registry);
    }
}
