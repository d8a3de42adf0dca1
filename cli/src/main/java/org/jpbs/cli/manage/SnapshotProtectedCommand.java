package org.jpbs.cli.manage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.UsageException;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.cli.commands.OutputFormatOption;
import org.jpbs.cli.commands.RepositoryOptions;
import org.jpbs.client.remote.PbsClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs snapshot protected show|update}: a snapshot's protection ({@code GET|PUT
 * .../protected?SNAP[&protected=]}); a protected snapshot survives prune and forget. JSON output
 * is {@code {"protected": true|false}} as the PBS client prints.
 */
@Command(name = "protected", description = "Show or change whether a snapshot on a server is protected.",
        subcommands = {SnapshotProtectedCommand.Show.class, SnapshotProtectedCommand.Update.class})
public final class SnapshotProtectedCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    /** {@code jpbs snapshot protected show SNAPSHOT}: prints true or false. */
    @Command(name = "show", description = "Print true if SNAPSHOT is protected, else false.")
    public static final class Show implements Callable<Integer> {
        @Mixin
        HelpOption help;

        @Mixin
        RepositoryOptions repo;

        @Mixin
        SnapshotArgs snap;

        @Mixin
        OutputFormatOption output;

        private final CliContext ctx;

        /** Creates the command. */
        public Show(CliContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() throws Exception {
            var r = output.renderer(ctx);
            try (PbsClient pbs = repo.serverClient(ctx, "snapshot protected show")) {
                JsonNode p = pbs.get(pbs.datastorePath() + "/protected", Api.snapshot(snap.ref()));
                r.value(JsonNodeFactory.instance.objectNode().set("protected", p), Boolean.toString(p.asBoolean()));
            }
            return 0;
        }
    }

    /** {@code jpbs snapshot protected update SNAPSHOT true|false}. */
    @Command(name = "update", description = "Protect (true) or unprotect (false) SNAPSHOT.")
    public static final class Update implements Callable<Integer> {
        @Mixin
        HelpOption help;

        @Mixin
        RepositoryOptions repo;

        @Mixin
        SnapshotArgs snap;

        @Parameters(index = "1", paramLabel = "PROTECTED", description = "true or false (also 1/0, yes/no, on/off).")
        String value;

        private final CliContext ctx;

        /** Creates the command. */
        public Update(CliContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() throws Exception {
            boolean p = switch (value.toLowerCase(Locale.ROOT)) {
                case "true", "1", "yes", "on" -> true;
                case "false", "0", "no", "off" -> false;
                default -> throw new UsageException("PROTECTED: '" + value + "' is not a boolean (true or false)");
            };
            try (PbsClient pbs = repo.serverClient(ctx, "snapshot protected update")) {
                pbs.put(pbs.datastorePath() + "/protected", Api.snapshot(snap.ref()).add("protected", p));
            }
            return 0;
        }
    }
}
