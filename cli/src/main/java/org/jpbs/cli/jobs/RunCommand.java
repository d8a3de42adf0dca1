package org.jpbs.cli.jobs;

import java.io.IOException;
import java.util.Map;
import org.jpbs.cli.CliContext;
import org.jpbs.core.api.Upid;
import org.jpbs.datastore.jobs.JobConfig;
import org.jpbs.datastore.task.TaskInfo;
import org.jpbs.server.ServerConfig;
import org.jpbs.server.ServerServices;
import org.jpbs.server.api.LocalDatastoreJobs;
import org.jpbs.server.api.ScheduledJobs;
import org.jpbs.server.jobs.JobScheduler;
import org.jpbs.server.jobs.ScheduledJob;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs prune-job|verify-job|sync-job run ID}: runs the job now in this process, as the server's
 * scheduler would (a task with its log under {@code <config>/log}, the job state updated),
 * prints the task log and fails (exit 1) if the task failed.
 */
@Command(name = "run", description = "Run the job now in this process (a task with a log; its state is recorded).")
public final class RunCommand extends JobCommands.Sub {
    @Parameters(index = "0", paramLabel = "ID", description = "Job id.")
    String id;

    public RunCommand(CliContext ctx) {
        super(ctx);
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        JobConfig c = store().read().get(id).orElseThrow(() ->
                new IllegalArgumentException("no such " + kind().sectionType() + " '" + id + "' in " + store().file()));
        return run(ctx, dir(), c);
    }

    /**
     * Runs a job now in this process as the scheduler would (a task; its state recorded), prints
     * the task log; 1 if the task failed. Sync jobs run with the sync engine ({@code docs/sync.md}).
     */
    static int run(CliContext ctx, java.nio.file.Path dir, JobConfig c) throws IOException, InterruptedException {
        ServerServices opened = ServerServices.open(ServerConfig.of(dir, Map.of()));
        ServerServices svc = opened.withJobs(new LocalDatastoreJobs(JobScheduler.AUTH_ID, opened.budget()));
        ScheduledJobs jobs = new ScheduledJobs(svc, dir, org.jpbs.cli.admin.SyncEngineTasks.of(dir));
        ScheduledJob job = jobs.of(c);
        Upid upid = svc.scheduler().runNow(job, JobScheduler.AUTH_ID);
        ctx.err().println("started " + upid);
        TaskInfo done;
        while ((done = svc.tasks().info(upid).orElseThrow()).running() || svc.scheduler().isRunning(job)) {
            Thread.sleep(100);
        }
        svc.tasks().log(upid, 0, Long.MAX_VALUE).lines().forEach(ctx.out()::println);
        return done.state().kind() == org.jpbs.datastore.task.TaskState.Kind.ERROR ? 1 : 0;
    }
}
