package org.jpbs.cli.jobs;

import java.io.IOException;
import java.util.Map;
import org.jpbs.cli.CliContext;
import org.jpbs.core.api.Upid;
import org.jpbs.datastore.jobs.JobConfig;
import org.jpbs.datastore.jobs.JobKind;
import org.jpbs.datastore.task.TaskInfo;
import org.jpbs.server.ServerConfig;
import org.jpbs.server.ServerServices;
import org.jpbs.server.api.LocalDatastoreJobs;
import org.jpbs.server.api.ScheduledJobs;
import org.jpbs.server.jobs.JobScheduler;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs prune-job|verify-job run ID}: runs the job now in this process, as the server's
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
        if (kind() == JobKind.SYNC) {
            throw new IllegalStateException("sync job '" + id + "': running sync jobs is not implemented yet");
        }
        JobConfig c = store().read().get(id).orElseThrow(() ->
                new IllegalArgumentException("no such " + kind().sectionType() + " '" + id + "' in " + store().file()));
        ServerServices svc = ServerServices.open(ServerConfig.of(dir(), Map.of()))
                .withJobs(new LocalDatastoreJobs(JobScheduler.AUTH_ID));
        Upid upid = svc.scheduler().runNow(new ScheduledJobs(svc, dir()).of(c), JobScheduler.AUTH_ID);
        info("started " + upid);
        TaskInfo done;
        while ((done = svc.tasks().info(upid).orElseThrow()).running() || svc.scheduler().isRunning(new ScheduledJobs(svc, dir()).of(c))) {
            Thread.sleep(100);
        }
        svc.tasks().log(upid, 0, Long.MAX_VALUE).lines().forEach(ctx.out()::println);
        return done.state().kind() == org.jpbs.datastore.task.TaskState.Kind.ERROR ? 1 : 0;
    }
}
