package org.jpbs.datastore.task;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.jpbs.core.api.Upid;

/**
 * One task while it runs: writes its log file ({@code <RFC 3339 local time>: <message>}
 * lines; the time is 25 characters, e.g. {@code 2026-01-31T12:00:00+01:00}, as the PBS client
 * expects), counts warnings, carries the stop request, and on {@link #finish} writes the last
 * line ({@code TASK OK}, {@code TASK WARNINGS: n}, {@code TASK ERROR: <message>}) and hands its
 * state to the {@link TaskManager}. Thread-safe.
 */
public final class WorkerTask implements TaskLog {
    private static final System.Logger LOG = System.getLogger(WorkerTask.class.getName());
    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxxx");

    private final TaskManager manager;
    private final Upid upid;
    private final Path logFile;
    private final Clock clock;
    private final AtomicLong warnings = new AtomicLong();
    private final List<Runnable> abortListeners = new CopyOnWriteArrayList<>();
    private final java.util.Map<String, Long> figures = new java.util.concurrent.ConcurrentHashMap<>();
    private final long startNanos = System.nanoTime();
    private volatile long durationNanos = -1;
    private BufferedWriter out; // guarded by this; null once closed or broken
    private TaskState state; // guarded by this
    private volatile boolean abort;

    WorkerTask(TaskManager manager, Upid upid, Path logFile, Clock clock) throws IOException {
        this.manager = manager;
        this.upid = upid;
        this.logFile = logFile;
        this.clock = clock;
        Files.createDirectories(logFile.getParent());
        this.out = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE);
    }

    /** The task id. */
    public Upid upid() {
        return upid;
    }

    /** The log file. */
    public Path logFile() {
        return logFile;
    }

    /** Warnings so far. */
    public long warnings() {
        return warnings.get();
    }

    @Override
    public void log(String message) {
        write(message);
    }

    @Override
    public void warn(String message) {
        warnings.incrementAndGet();
        write("WARN: " + message);
    }

    private synchronized void write(String message) {
        if (out == null) {
            return;
        }
        String time = ZonedDateTime.now(clock).format(TIME);
        try {
            for (String line : message.split("\n", -1)) {
                out.write(time);
                out.write(": ");
                out.write(line);
                out.write('\n');
            }
            out.flush();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.ERROR, "cannot write task log " + logFile + ": " + e.getMessage());
            closeQuietly();
        }
    }

    private void closeQuietly() {
        try {
            out.close();
        } catch (IOException ignored) {
            // the log is lost either way
        }
        out = null;
    }

    @Override
    public void record(String figure, long amount) {
        figures.merge(figure, amount, Long::sum);
    }

    /** The figures recorded so far ({@link TaskLog#record}), by name. */
    public java.util.Map<String, Long> figures() {
        return java.util.Map.copyOf(figures);
    }

    /** How long the task ran, in seconds (measured with the monotonic clock); so far while it runs. */
    public double durationSeconds() {
        long d = durationNanos;
        return (d >= 0 ? d : System.nanoTime() - startNanos) / 1e9;
    }

    @Override
    public boolean abortRequested() {
        return abort;
    }

    /** Runs {@code r} when a stop is requested (at once if it already was). */
    public void onAbort(Runnable r) {
        abortListeners.add(r);
        if (abort) {
            r.run();
        }
    }

    /** Asks the task to stop: sets the flag and runs the abort listeners. */
    void requestAbort() {
        if (!abort) {
            abort = true;
            write("received abort request");
            abortListeners.forEach(Runnable::run);
        }
    }

    /** The exit state, or null while running. */
    public synchronized TaskState state() {
        return state;
    }

    /**
     * Ends the task: {@code error} null means success ({@code OK} or {@code WARNINGS: n}),
     * otherwise the error's first message line. Writes the last log line, closes the log and
     * records the task as finished. Later calls change nothing.
     *
     * @return the exit state
     */
    public TaskState finish(Throwable error) {
        return finish(error == null ? null : messageOf(error));
    }

    /**
     * As {@link #finish(Throwable)} with an error message (null for success).
     *
     * @return the exit state
     */
    public TaskState finish(String errorMessage) {
        TaskState s;
        synchronized (this) {
            if (state != null) {
                return state;
            }
            long end = clock.instant().getEpochSecond();
            if (errorMessage != null) {
                s = TaskState.error(oneLine(errorMessage), end);
                write("TASK ERROR: " + s.text());
            } else if (warnings.get() > 0) {
                s = TaskState.warnings(warnings.get(), end);
                write("TASK " + s.text());
            } else {
                s = TaskState.ok(end);
                write("TASK OK");
            }
            state = s;
            durationNanos = System.nanoTime() - startNanos;
            if (out != null) {
                closeQuietly();
            }
        }
        manager.finished(this, s);
        return s;
    }

    static String messageOf(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.toString() : m;
    }

    private static String oneLine(String s) {
        String l = s.strip().lines().findFirst().orElse("");
        return l.isEmpty() ? "unknown error" : l;
    }

    @Override
    public String toString() {
        return "WorkerTask[" + upid + "]";
    }
}
