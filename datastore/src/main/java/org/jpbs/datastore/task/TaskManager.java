package org.jpbs.datastore.task;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jpbs.core.api.Upid;

/**
 * Starts, tracks and lists tasks ({@code docs/datastore-config.md#tasks}). Layout under the log
 * directory (jpbs: {@code <config>/log}):
 * <ul>
 * <li>{@code tasks/<XX>/<UPID>}: the log of one task ({@code XX} = the task id's low byte in
 *     upper-case hex, to spread the files);</li>
 * <li>{@code tasks/archive}: one line per finished task, {@code <UPID> <end time as 8 hex
 *     digits> <exit status>} (the PBS archive format), appended when a task ends and read on
 *     start (the newest {@value #KEEP_FINISHED} are listed).</li>
 * </ul>
 * A task's UPID carries this node's name, the JVM's pid and start time (clock ticks since
 * boot, from {@code /proc/self/stat}) and a per-process task counter. Tasks that were running
 * when the process died have no archive line and are not listed. Thread-safe.
 */
public final class TaskManager {
    private static final System.Logger LOG = System.getLogger(TaskManager.class.getName());
    /** How many finished tasks are kept in memory for listings. */
    public static final int KEEP_FINISHED = 10_000;
    static final String ARCHIVE = "archive";

    private final Path tasksDir;
    private final String node;
    private final Clock clock;
    private final long pid;
    private final long pstart;
    /** Per process, as PBS: two task managers of one JVM (tests, {@code jpbs} commands run in-process) never share a UPID. */
    private static final AtomicLong NEXT_TASK_ID = new AtomicLong();
    private final Map<String, WorkerTask> running = new ConcurrentHashMap<>();
    private final Deque<TaskInfo> finished = new ArrayDeque<>(); // guarded by itself; oldest first
    private final List<TaskListener> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** A page of a task log: lines {@code start+1 ..}, the file's line count and whether the task still runs. */
    public record LogPage(List<String> lines, long start, long total, boolean active) {}

    /** A page of the task list and how many tasks matched in all. */
    public record TaskList(List<TaskInfo> tasks, long total) {}

    /**
     * @param logDir log directory (created if missing); tasks go to {@code logDir/tasks}
     * @param node   node name for UPIDs
     * @param clock  time source (log timestamps in its zone; start/end times)
     * @throws IOException if the directory cannot be created or the archive read
     */
    public TaskManager(Path logDir, String node, Clock clock) throws IOException {
        this.tasksDir = logDir.resolve("tasks");
        this.node = node;
        this.clock = clock;
        this.pid = ProcessHandle.current().pid();
        this.pstart = processStart();
        Files.createDirectories(tasksDir);
        loadArchive();
    }

    /** A manager for {@code logDir} with this host's node name and the system clock in the local zone. */
    public static TaskManager open(Path logDir) throws IOException {
        return new TaskManager(logDir, localNodeName(), Clock.systemDefaultZone());
    }

    /** This host's name as a UPID node name (first label, only letters, digits and '-'); {@code localhost} if none. */
    public static String localNodeName() {
        String h;
        try {
            h = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            h = "";
        }
        int dot = h.indexOf('.');
        if (dot >= 0) {
            h = h.substring(0, dot);
        }
        h = h.replaceAll("[^A-Za-z0-9-]", "").replaceAll("^-+|-+$", "");
        return h.isEmpty() ? "localhost" : h;
    }

    private static long processStart() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[19]); // field 22 (starttime); fields after the name start at 3
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** The node name in this manager's UPIDs. */
    public String node() {
        return node;
    }

    private Upid newUpid(String type, String workerId, String authId) {
        return new Upid(node, pid, pstart, NEXT_TASK_ID.getAndIncrement(), clock.instant().getEpochSecond(), type,
                workerId == null ? "" : workerId, authId);
    }

    /** The log file of a task (it may not exist). */
    public Path logFile(Upid upid) {
        return tasksDir.resolve(String.format(Locale.ROOT, "%02X", upid.taskId() & 0xFF)).resolve(upid.toString());
    }

    /**
     * Starts a task whose end the caller decides (e.g. a backup session that ends when its
     * connection does): the caller logs to it and calls {@link WorkerTask#finish}.
     *
     * @param type     worker type, e.g. {@code backup}
     * @param workerId worker id, e.g. {@code store1:vm/100}, or null
     * @param authId   who started it
     * @throws IOException if the log file cannot be created
     */
    public WorkerTask begin(String type, String workerId, String authId) throws IOException {
        Upid u = newUpid(type, workerId, authId);
        WorkerTask t = new WorkerTask(this, u, logFile(u), clock);
        running.put(u.toString(), t);
        return t;
    }

    /**
     * Runs {@code job} as a task on a new virtual thread; a stop request interrupts it.
     *
     * @return the task's UPID (the task is listed as running from now on)
     * @throws IOException if the log file cannot be created
     */
    public Upid spawn(String type, String workerId, String authId, TaskJob job) throws IOException {
        return spawn(type, workerId, authId, job, s -> { });
    }

    /**
     * As {@link #spawn(String, String, String, TaskJob)}; {@code whenDone} is called with the end
     * state after the task is finished and archived (the scheduler records job states with it).
     *
     * @throws IOException if the log file cannot be created
     */
    public Upid spawn(String type, String workerId, String authId, TaskJob job,
                      java.util.function.Consumer<TaskState> whenDone) throws IOException {
        WorkerTask t = begin(type, workerId, authId);
        Thread th = Thread.ofVirtual().name("jpbs-task-" + t.upid().taskId()).unstarted(() -> {
            Throwable err = null;
            try {
                job.run(t);
            } catch (Throwable e) {
                err = e instanceof InterruptedException && t.abortRequested() ? new TaskAbortedException() : e;
            }
            whenDone.accept(t.finish(err));
        });
        t.onAbort(th::interrupt);
        th.start();
        return t.upid();
    }

    /** Called by {@link WorkerTask#finish}: moves the task to the finished list and appends the archive line. */
    void finished(WorkerTask t, TaskState s) {
        String line = t.upid() + " " + String.format(Locale.ROOT, "%08X", s.endTime()) + " " + s.text() + "\n";
        synchronized (finished) {
            finished.addLast(new TaskInfo(t.upid(), s));
            while (finished.size() > KEEP_FINISHED) {
                finished.removeFirst();
            }
            try (Writer w = Files.newBufferedWriter(tasksDir.resolve(ARCHIVE), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE)) {
                w.write(line);
            } catch (IOException e) {
                LOG.log(Level.ERROR, "cannot append to the task archive: " + e.getMessage());
            }
        }
        running.remove(t.upid().toString()); // after it is in the finished list: never missing from both
        for (TaskListener l : listeners) {
            try {
                l.taskEnded(t, s);
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "task end listener failed for " + t.upid() + ": " + e, e);
            }
        }
    }

    /** Calls {@code listener} at the end of every task from now on ({@link TaskListener}). */
    public void addListener(TaskListener listener) {
        listeners.add(java.util.Objects.requireNonNull(listener, "listener"));
    }

    /** Stops calling {@code listener}. */
    public void removeListener(TaskListener listener) {
        listeners.remove(listener);
    }

    private void loadArchive() throws IOException {
        Path f = tasksDir.resolve(ARCHIVE);
        if (!Files.exists(f)) {
            return;
        }
        try (BufferedReader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                String[] p = line.split(" ", 3);
                if (p.length < 3) {
                    continue;
                }
                try {
                    finished.addLast(new TaskInfo(Upid.parse(p[0]), TaskState.parse(p[2], Long.parseLong(p[1], 16))));
                } catch (IllegalArgumentException e) {
                    continue; // a damaged line: skip it
                }
                if (finished.size() > KEEP_FINISHED) {
                    finished.removeFirst();
                }
            }
        }
    }

    /** Every known task, newest first (by start time, then task id). */
    private List<TaskInfo> all() {
        // a task ending is in both maps for a moment (finished first): the finished entry wins.
        // Compared as Upid records, not as text: formatting 10,000 UPIDs per listing cost more
        // than the listing itself (bench/dashboard.sh)
        Map<Upid, WorkerTask> live = new java.util.HashMap<>();
        running.values().forEach(t -> live.put(t.upid(), t));
        List<TaskInfo> out;
        synchronized (finished) {
            out = new ArrayList<>(finished.size() + live.size());
            for (TaskInfo t : finished) {
                out.add(t);
                if (!live.isEmpty()) {
                    live.remove(t.upid());
                }
            }
        }
        live.values().forEach(t -> out.add(new TaskInfo(t.upid(), t.state())));
        out.sort(Comparator.comparingLong((TaskInfo t) -> t.upid().startTime())
                .thenComparingLong(t -> t.upid().taskId()).reversed());
        return out;
    }

    /** The tasks passing {@code filter}, newest first, paged by its start and limit. */
    public TaskList list(TaskFilter filter) {
        List<TaskInfo> match = new ArrayList<>();
        for (TaskInfo t : all()) {
            if (filter.matches(t)) {
                match.add(t);
            }
        }
        int from = (int) Math.min(filter.start(), match.size());
        int to = filter.limit() == 0 ? match.size() : (int) Math.min(match.size(), from + filter.limit());
        return new TaskList(List.copyOf(match.subList(from, to)), match.size());
    }

    /** One task, running or finished (among the newest {@value #KEEP_FINISHED}). */
    public Optional<TaskInfo> info(Upid upid) {
        WorkerTask t = running.get(upid.toString());
        if (t != null) {
            return Optional.of(new TaskInfo(upid, t.state()));
        }
        synchronized (finished) {
            for (var it = finished.descendingIterator(); it.hasNext(); ) {
                TaskInfo i = it.next();
                if (i.upid().equals(upid)) {
                    return Optional.of(i);
                }
            }
        }
        return Optional.empty();
    }

    /** The running task object, if the task is running. */
    public Optional<WorkerTask> runningTask(Upid upid) {
        return Optional.ofNullable(running.get(upid.toString()));
    }

    /**
     * Lines of a task log.
     *
     * @param start index of the first line (0 = first)
     * @param limit most lines; 0 = all
     * @throws NoSuchFileException if the task has no log here
     */
    public LogPage log(Upid upid, long start, long limit) throws IOException {
        boolean active = running.containsKey(upid.toString());
        List<String> lines = new ArrayList<>();
        long n = 0;
        try (BufferedReader r = Files.newBufferedReader(logFile(upid), StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                if (n >= start && (limit == 0 || n < start + limit)) {
                    lines.add(line);
                }
                n++;
            }
        }
        return new LogPage(lines, start, n, active);
    }

    /**
     * Asks a running task to stop (its job sees {@link TaskLog#abortRequested()}, a spawned
     * job's thread is interrupted, a backup session is closed).
     *
     * @return false if the task is not running
     */
    public boolean stop(Upid upid) {
        WorkerTask t = running.get(upid.toString());
        if (t == null || t.state() != null) {
            return false; // not running, or just ending
        }
        t.requestAbort();
        return true;
    }

    /** Number of running tasks. */
    public int runningCount() {
        return running.size();
    }
}
