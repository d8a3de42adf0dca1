package org.jpbs.server.api;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jpbs.datastore.config.DatastoreConfig;
import org.jpbs.datastore.config.DatastoreHandle;
import org.jpbs.datastore.config.KeepOptions;
import org.jpbs.datastore.config.Operation;
import org.jpbs.datastore.jobs.JobConfig;
import org.jpbs.datastore.jobs.JobConfigStore;
import org.jpbs.datastore.jobs.JobKind;
import org.jpbs.datastore.task.TaskJob;
import org.jpbs.server.ServerServices;
import org.jpbs.server.jobs.ProblemLog;
import org.jpbs.server.jobs.ScheduledJob;
import org.jpbs.server.jobs.SyncTasks;

/**
 * The scheduler's jobs, read from the configuration at every tick ({@code docs/jobs.md}): the
 * garbage collection of each datastore with a {@code gc-schedule}, the old datastore-level
 * {@code prune-schedule}, every prune job of {@code prune.cfg} that is not disabled and every
 * verification job of {@code verification.cfg}. Each runs through the server's
 * {@link DatastoreJobs} (the same GC, prune and verify as the admin API) over all groups.
 * Sync jobs of {@code sync.cfg} with a schedule run through the {@link SyncTasks} handed in
 * ({@code docs/sync.md#running}).
 */
public final class ScheduledJobs {
    private static final System.Logger LOG = System.getLogger(ScheduledJobs.class.getName());

    private final ServerServices svc;
    private final JobConfigStore prune;
    private final JobConfigStore verify;
    private final JobConfigStore sync;
    private final SyncTasks syncTasks;
    private final Path configDir;
    private final ProblemLog problems = new ProblemLog(LOG);

    /** The jobs of the services' datastores and of the job files in {@code configDir}; sync jobs as the scheduler's {@link SyncTasks}. */
    public ScheduledJobs(ServerServices svc, Path configDir) {
        this(svc, configDir, svc.scheduler().syncTasks());
    }

    /** As {@link #ScheduledJobs(ServerServices, Path)}, with sync jobs run by {@code syncTasks}. */
    public ScheduledJobs(ServerServices svc, Path configDir, SyncTasks syncTasks) {
        this.svc = svc;
        this.prune = JobConfigStore.open(configDir, JobKind.PRUNE);
        this.verify = JobConfigStore.open(configDir, JobKind.VERIFY);
        this.sync = JobConfigStore.open(configDir, JobKind.SYNC);
        this.syncTasks = syncTasks;
        this.configDir = configDir;
    }

    /**
     * Every scheduled job now. A file that does not parse contributes none; the other files' jobs
     * still run. Its error is logged once per change of the file (not at every tick), and once
     * more when it is valid again.
     */
    public List<ScheduledJob> all() {
        List<ScheduledJob> out = new ArrayList<>();
        Path dsCfg = configDir.resolve(org.jpbs.datastore.config.DatastoreConfigStore.FILE);
        try {
            for (DatastoreConfig d : svc.datastores().list()) {
                d.gcSchedule().ifPresent(s -> out.add(gc(d.name(), s)));
                d.pruneSchedule().ifPresent(s -> out.add(datastorePrune(d, s)));
            }
            problems.resolved(dsCfg.toString(), "scheduler: datastore.cfg is valid again");
        } catch (IOException | RuntimeException e) {
            problems.problem(dsCfg.toString(), e.getMessage() + "@" + version(dsCfg), "scheduler: datastore.cfg: "
                    + e.getMessage());
        }
        for (JobConfigStore st : List.of(prune, verify, sync)) {
            try {
                for (JobConfig c : st.read().all()) {
                    if (!c.disabled() && (c.kind() != JobKind.SYNC || c.schedule().isPresent())) {
                        out.add(of(c));
                    }
                }
                problems.resolved(st.file().toString(), "scheduler: " + st.file().getFileName()
                        + " is valid again; its jobs are scheduled");
            } catch (IOException | RuntimeException e) {
                problems.problem(st.file().toString(), e.getMessage() + "@" + version(st.file()), "scheduler: "
                        + e.getMessage() + " (its jobs do not run until it is fixed)");
            }
        }
        return out;
    }

    /** The file's modification time and size: a change makes its problem worth logging again. */
    private static String version(Path f) {
        try {
            return java.nio.file.Files.getLastModifiedTime(f) + "/" + java.nio.file.Files.size(f);
        } catch (IOException e) {
            return "-";
        }
    }

    /** The scheduled form of a prune or verification job. */
    public ScheduledJob of(JobConfig c) {
        return switch (c.kind()) {
            case PRUNE -> job("prunejob", c.id(), c.store() + ":" + c.id(), c.schedule().orElse(null), c.store(),
                    h -> svc.jobs().prune(h, pruneParams(c.props()), GroupScope.ALL));
            case VERIFY -> job("verificationjob", c.id(), c.store() + ":" + c.id(), c.schedule().orElse(null), c.store(),
                    h -> svc.jobs().verify(h, verifyParams(c), GroupScope.ALL));
            case SYNC -> job("syncjob", c.id(), syncWorkerId(c), c.schedule().orElse(null), c.store(),
                    c.get("sync-direction").orElse("pull").equals("push") ? Operation.READ : Operation.WRITE,
                    h -> syncTasks.task(c, h, PushScope.of(configDir, c, h.datastore()), PushScope.target(configDir, c)));
            default -> throw new IllegalArgumentException("no scheduled " + c.kind().sectionType() + " jobs");
        };
    }

    /** A sync job's task worker id: {@code <remote>:<remote-store>:<store>:<job id>}. */
    private static String syncWorkerId(JobConfig c) {
        return c.get("remote").orElse("-") + ":" + c.get("remote-store").orElse("-") + ":" + c.store() + ":" + c.id();
    }

    /** The garbage collection of a datastore. */
    public ScheduledJob gc(String store, String schedule) {
        return job("garbage_collection", store, store, schedule, store, h -> svc.jobs().garbageCollection(h));
    }

    private ScheduledJob datastorePrune(DatastoreConfig d, String schedule) {
        Map<String, String> keep = new LinkedHashMap<>();
        for (String k : KeepOptions.KEYS) {
            Optional.ofNullable(d.properties().get(k)).ifPresent(v -> keep.put(k, v));
        }
        return job("prune", d.name(), d.name(), schedule, d.name(), h -> svc.jobs().prune(h, keep, GroupScope.ALL));
    }

    private static Map<String, String> pruneParams(Map<String, String> props) {
        Map<String, String> p = new LinkedHashMap<>();
        for (String k : KeepOptions.KEYS) {
            if (props.containsKey(k)) {
                p.put(k, props.get(k));
            }
        }
        copy(props, p, "ns", "max-depth");
        return p;
    }

    private static Map<String, String> verifyParams(JobConfig c) {
        Map<String, String> p = new LinkedHashMap<>();
        copy(c.props(), p, "ns", "max-depth", "outdated-after");
        // PBS: a verification job skips verified snapshots unless ignore-verified is false
        p.put("ignore-verified", String.valueOf(!c.props().containsKey("ignore-verified") || c.flag("ignore-verified")));
        return p;
    }

    private static void copy(Map<String, String> from, Map<String, String> to, String... keys) {
        for (String k : keys) {
            if (from.containsKey(k)) {
                to.put(k, from.get(k));
            }
        }
    }

    /**
     * {@code verify-new}: when the datastore's {@code datastore.cfg} entry says so, verifies a
     * snapshot right after its backup finished, as its own task (PBS: worker type {@code verify},
     * id {@code <store>:<type>/<id>/<HEXTIME>}, first line "Automatically verifying newly added
     * snapshot"). A datastore that refuses the verify now (maintenance) is logged and skipped.
     */
    public static void verifyNew(ServerServices svc, String store, org.jpbs.core.api.BackupSnapshotRef ref, String authId) {
        try {
            if (!svc.datastores().config(store).verifyNew()) {
                return;
            }
            DatastoreHandle h = svc.datastores().lookup(store, Operation.WRITE);
            try {
                Map<String, String> p = new LinkedHashMap<>();
                if (!ref.group().ns().isRoot()) {
                    p.put("ns", ref.group().ns().toString());
                }
                p.put("backup-type", ref.group().type().text());
                p.put("backup-id", ref.group().id());
                p.put("backup-time", Long.toString(ref.time()));
                TaskJob body = svc.jobs().verify(h, p, GroupScope.ALL);
                svc.tasks().spawn("verify", String.format(java.util.Locale.ROOT, "%s:%s/%s/%08X", store,
                        ref.group().type().text(), ref.group().id(), ref.time()), authId, log -> {
                            try (h) {
                                log.log("Automatically verifying newly added snapshot");
                                body.run(log);
                            }
                        });
            } catch (IOException | RuntimeException e) {
                h.close();
                throw e;
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "verify-new of " + ref + " on '" + store + "' not started: " + e.getMessage());
        }
    }

    @FunctionalInterface
    private interface Body {
        TaskJob create(DatastoreHandle h) throws IOException;
    }

    private static ScheduledJob job(String type, String id, String workerId, String schedule, String store, Body body) {
        return job(type, id, workerId, schedule, store, Operation.WRITE, body);
    }

    private static ScheduledJob job(String type, String id, String workerId, String schedule, String store,
                                    Operation op, Body body) {
        return new ScheduledJob() {
            @Override
            public String stateType() {
                return type;
            }

            @Override
            public String id() {
                return id;
            }

            @Override
            public String workerType() {
                return type;
            }

            @Override
            public String workerId() {
                return workerId;
            }

            @Override
            public String schedule() {
                return schedule;
            }

            @Override
            public String store() {
                return store;
            }

            @Override
            public Operation operation() {
                return op;
            }

            @Override
            public TaskJob task(DatastoreHandle h) throws IOException {
                return body.create(h);
            }
        };
    }
}
