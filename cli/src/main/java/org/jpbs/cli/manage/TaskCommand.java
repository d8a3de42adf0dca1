package org.jpbs.cli.manage;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.UsageException;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.cli.commands.OutputFormatOption;
import org.jpbs.cli.commands.Renderer.Column;
import org.jpbs.cli.commands.RepositoryOptions;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.client.remote.RemoteTasks;
import org.jpbs.core.api.Upid;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs task list|log|stop}, as {@code proxmox-backup-client task}: the repository user's
 * tasks on the repository's datastore ({@code GET /nodes/localhost/tasks?running=&limit=&userfilter=&store=}),
 * a task's log, and a stop request.
 */
@Command(name = "task", description = "List server tasks, show a task's log, stop a task.",
        subcommands = {TaskCommand.ListTasks.class, TaskCommand.Log.class, TaskCommand.Stop.class})
public final class TaskCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    static String checkUpid(String upid) {
        try {
            Upid.parse(upid);
        } catch (IllegalArgumentException e) {
            throw new UsageException("UPID: " + e.getMessage(), e);
        }
        return upid;
    }

    /** {@code jpbs task list [--all] [--limit N]}. */
    @Command(name = "list", description = "List the running tasks of the repository user (--all: also ended ones).")
    public static final class ListTasks implements Callable<Integer> {
        @Mixin
        HelpOption help;

        @Mixin
        RepositoryOptions repo;

        @Mixin
        OutputFormatOption output;

        @Option(names = "--all", description = "Also list stopped tasks.")
        boolean all;

        @Option(names = "--limit", paramLabel = "N", description = "At most N tasks (1-1000, default 50).")
        int limit = 50;

        private final CliContext ctx;

        /** Creates the command. */
        public ListTasks(CliContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() throws Exception {
            if (limit < 1 || limit > 1000) {
                throw new UsageException("--limit must be 1..1000, got " + limit);
            }
            try (PbsClient pbs = repo.serverClient(ctx, "task list")) {
                JsonNode data = new RemoteTasks(pbs).list(all, limit, pbs.repository().authId(), pbs.repository().store());
                output.renderer(ctx).table(data, List.of(
                        new Column("starttime", t -> Api.epoch(t.get("starttime"))),
                        new Column("endtime", t -> Api.epoch(t.get("endtime"))),
                        Column.field("upid", "upid"),
                        new Column("status", t -> t.path("status").asText("running"))));
            }
            return 0;
        }
    }

    /** {@code jpbs task log UPID}: prints the log, following a running task to its end. */
    @Command(name = "log", description = "Print a task's log (follows a running task to its end).")
    public static final class Log implements Callable<Integer> {
        @Mixin
        HelpOption help;

        @Mixin
        RepositoryOptions repo;

        @Parameters(index = "0", paramLabel = "UPID", description = "The task id (UPID:...).")
        String upid;

        private final CliContext ctx;

        /** Creates the command. */
        public Log(CliContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() throws Exception {
            checkUpid(upid);
            try (PbsClient pbs = repo.serverClient(ctx, "task log")) {
                new RemoteTasks(pbs).follow(upid, true, ctx.out()::println);
                ctx.out().flush();
            }
            return 0;
        }
    }

    /** {@code jpbs task stop UPID}. */
    @Command(name = "stop", description = "Ask a running task to stop.")
    public static final class Stop implements Callable<Integer> {
        @Mixin
        HelpOption help;

        @Mixin
        RepositoryOptions repo;

        @Parameters(index = "0", paramLabel = "UPID", description = "The task id (UPID:...).")
        String upid;

        private final CliContext ctx;

        /** Creates the command. */
        public Stop(CliContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() throws Exception {
            checkUpid(upid);
            try (PbsClient pbs = repo.serverClient(ctx, "task stop")) {
                new RemoteTasks(pbs).stop(upid);
            }
            return 0;
        }
    }
}
