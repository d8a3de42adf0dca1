package org.jpbs.server.jobs;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.jpbs.core.api.Upid;
import org.jpbs.core.calendar.CalendarEvent;
import org.jpbs.datastore.config.DatastoreCache;
import org.jpbs.datastore.config.DatastoreHandle;
import org.jpbs.datastore.config.DatastoreLookupException;
import org.jpbs.datastore.jobs.JobState;
import org.jpbs.datastore.jobs.JobStateStore;
import org.jpbs.datastore.task.TaskInfo;
import org.jpbs.datastore.task.TaskJob;
import org.jpbs.datastore.task.TaskManager;
import org.jpbs.datastore.task.TaskState;

/**
 * Runs scheduled jobs as tasks ({@code docs/jobs.md#the-scheduler}). Each {@link #tick} reads the
 * current jobs from the source and starts those whose next event after their last run
 * ({@link JobStateStore#lastRunTime}) has come: a run missed while the server was down therefore
 * runs once, right after start. A job never runs twice at once (scheduled or on demand). A job
 * whose datastore refuses it (maintenance mode) is skipped with one log line per missed event
 * and runs once when the datastore is back. The clock and time zone are injectable. Thread-safe.
 */
public final class JobScheduler implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(JobScheduler.class.getName());
    /** Who scheduled tasks run as (PBS: root@pam). */
    public static final String AUTH_ID = "root@pam";

    private final Path configDir;
    private volatile SyncTasks syncTasks = SyncTasks.NONE;
    private final DatastoreCache stores;
    private final TaskManager tasks;
    private final JobStateStore states;
    private final Clock clock;
    private final ZoneId zone;
    private static final Object STARTING = new Object();
    private final Map<String, Object> running = new ConcurrentHashMap<>(); // key -> STARTING or the Upid
    private final Map<String, Long> skipped = new ConcurrentHashMap<>();
    private final ProblemLog problems = new ProblemLog(LOG);
    private volatile Supplier<List<ScheduledJob>> source = List::of;
    private volatile Thread thread;

    /**
     * @param configDir the config directory (job files; states under {@code jobstates})
     * @param clock     the time (tests use a fixed or moving clock)
     * @param zone      the server's time zone for calendar events
     */
    public JobScheduler(Path configDir, DatastoreCache stores, TaskManager tasks, Clock clock, ZoneId zone) {
        this.configDir = configDir;
        this.stores = stores;
        this.tasks = tasks;
        this.states = JobStateStore.open(configDir);
        this.clock = clock;
        this.zone = zone;
    }

    /** How sync jobs run (see {@link #syncTasks(SyncTasks)}). */
    public SyncTasks syncTasks() {
        return syncTasks;
    }

    /**
     * Hands in the sync engine ({@code docs/sync.md#running}); until then sync jobs fail to
     * start with a message saying so ({@link SyncTasks#NONE}).
     */
    public void syncTasks(SyncTasks tasks) {
        this.syncTasks = java.util.Objects.requireNonNull(tasks, "tasks");
    }

    /** The configuration directory (job files, job states). */
    public Path configDir() {
        return configDir;
    }

    /** The job state files. */
    public JobStateStore states() {
        return states;
    }

    /**
     * Starts ticking every {@code interval} on a daemon thread with the jobs of {@code jobs}.
     * Calling it again replaces the source.
     */
    public synchronized void start(Supplier<List<ScheduledJob>> jobs, Duration interval) {
        this.source = jobs;
        if (thread != null) {
            return;
        }
        thread = Thread.ofPlatform().daemon().name("jpbs-scheduler").start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    tick();
                } catch (RuntimeException e) {
                    LOG.log(Level.ERROR, "scheduler: " + e.getMessage(), e);
                }
                try {
                    Thread.sleep(interval);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    @Override
    public synchronized void close() {
        if (thread != null) {
            thread.interrupt();
            thread = null;
        }
    }

    /** One pass: starts every due job of the current source; answers the UPIDs started. */
    public List<Upid> tick() {
        return tick(source.get());
    }

    /** One pass over {@code jobs}; answers the UPIDs started. */
    public List<Upid> tick(List<ScheduledJob> jobs) {
        long now = clock.instant().getEpochSecond();
        List<Upid> started = new java.util.ArrayList<>();
        for (ScheduledJob j : jobs) {
            if (j.schedule() == null || running.containsKey(j.key())) {
                continue;
            }
            try {
                Optional<Instant> due = CalendarEvent.parse(j.schedule())
                        .next(Instant.ofEpochSecond(JobStateStore.lastRunTime(state(j, now))), zone);
                if (due.isEmpty() || due.get().getEpochSecond() > now) {
                    continue;
                }
                long event = due.get().getEpochSecond();
                try {
                    start(j, AUTH_ID).ifPresent(started::add);
                    skipped.remove(j.key());
                    problems.resolved(j.key(), j.workerType() + " '" + j.id() + "' starts again");
                } catch (DatastoreLookupException e) {
                    if (e.reason() == DatastoreLookupException.Reason.MAINTENANCE) {
                        if (!Long.valueOf(event).equals(skipped.put(j.key(), event))) {
                            LOG.log(Level.WARNING, "skipping " + j.workerType() + " '" + j.id() + "' due at "
                                    + due.get() + ": " + e.getMessage());
                        }
                    } else {
                        throw e;
                    }
                }
            } catch (IOException | RuntimeException e) { // logged once, not at every tick while it lasts
                problems.problem(j.key(), j.schedule() + "|" + e.getMessage(), "cannot start " + j.workerType() + " '"
                        + j.id() + "': " + e.getMessage());
            }
        }
        return started;
    }

    /**
     * Runs a job now (the API's and CLI's {@code run}); refused while it runs.
     *
     * @throws IllegalStateException    {@code "job '<id>' is already running (<upid>)"}
     * @throws DatastoreLookupException if its datastore refuses the job (maintenance, missing)
     * @throws IOException              if the task cannot be created
     */
    public Upid runNow(ScheduledJob j, String authId) throws IOException {
        return start(j, authId).orElseThrow(() -> new IllegalStateException("job '" + j.id() + "' is already running"
                + (running.get(j.key()) instanceof Upid u ? " (" + u + ")" : "")));
    }

    private Optional<Upid> start(ScheduledJob j, String authId) throws IOException {
        Object lock = new Object();
        if (running.putIfAbsent(j.key(), STARTING) != null) {
            return Optional.empty();
        }
        try {
            DatastoreHandle h = stores.lookup(j.store(), j.operation());
            TaskJob body;
            try {
                body = j.task(h);
            } catch (IOException | RuntimeException e) {
                h.close();
                throw e;
            }
            synchronized (lock) {
                Upid upid = tasks.spawn(j.workerType(), j.workerId(), authId, log -> {
                    synchronized (lock) { // the Started state is on disk before the run ends
                        try (h) {
                            body.run(log);
                        }
                    }
                }, end -> finished(j, end));
                running.put(j.key(), upid);
                states.save(j.stateType(), j.id(), new JobState.Started(upid.toString()));
                return Optional.of(upid);
            }
        } catch (IOException | RuntimeException e) {
            running.remove(j.key());
            throw e;
        }
    }

    private void finished(ScheduledJob j, TaskState end) {
        Object upid = running.get(j.key());
        try {
            if (upid instanceof Upid) {
                states.save(j.stateType(), j.id(), new JobState.Finished(upid.toString(), end, null));
            }
        } catch (IOException e) {
            LOG.log(Level.ERROR, "cannot record the state of " + j.key() + ": " + e.getMessage());
        } finally {
            running.remove(j.key());
        }
    }

    /**
     * The job's state; a {@code started} state whose task no longer runs (the server stopped
     * during the run) is completed from the task archive, or as unknown.
     */
    JobState state(ScheduledJob j, long now) throws IOException {
        JobState s = states.load(j.stateType(), j.id(), now);
        if (s instanceof JobState.Started st && !running.containsKey(j.key())) {
            Upid u = Upid.parse(st.upid());
            TaskState end = tasks.info(u).filter(i -> !i.running()).map(TaskInfo::state)
                    .orElse(TaskState.parse("unknown", now));
            if (tasks.info(u).map(TaskInfo::running).orElse(false)) {
                return s;
            }
            s = new JobState.Finished(st.upid(), end, null);
            states.save(j.stateType(), j.id(), s);
        }
        return s;
    }

    /** True if the job runs now. */
    public boolean isRunning(ScheduledJob j) {
        return running.containsKey(j.key());
    }

    /** PBS's schedule status of a job (next run computed from the last run's end or update). */
    public JobStatus status(ScheduledJob j) throws IOException {
        long now = clock.instant().getEpochSecond();
        JobState s = state(j, now);
        String upid = s.lastUpid().orElse(null);
        Long end = s instanceof JobState.Finished f ? f.state().endTime() : null;
        String text = s instanceof JobState.Finished f ? f.state().text() : null;
        long last = switch (s) {
            case JobState.Created c -> c.time();
            case JobState.Started st -> Upid.parse(st.upid()).startTime();
            case JobState.Finished f -> f.updated() != null ? f.updated() : f.state().endTime();
        };
        Long next = null;
        if (j.schedule() != null) {
            try {
                next = CalendarEvent.parse(j.schedule()).next(Instant.ofEpochSecond(last), zone)
                        .map(Instant::getEpochSecond).orElse(null);
            } catch (IllegalArgumentException e) {
                next = null; // as PBS: a bad schedule has no next run
            }
        }
        return new JobStatus(next, text, upid, end);
    }

    /**
     * Records that a job was created or its schedule changed (PBS: the next run counts from now,
     * not from an old run), unless it runs.
     */
    public void scheduleChanged(String stateType, String id) throws IOException {
        if (running.containsKey(stateType + "-" + id)) {
            return;
        }
        states.touch(stateType, id, clock.instant().getEpochSecond());
    }
}
