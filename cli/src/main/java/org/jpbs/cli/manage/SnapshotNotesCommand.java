package org.jpbs.cli.manage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.cli.commands.OutputFormatOption;
import org.jpbs.cli.commands.Renderer;
import org.jpbs.cli.commands.RepositoryOptions;
import org.jpbs.client.remote.PbsClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs snapshot notes show|update}: a snapshot's notes ({@code GET|PUT .../notes?SNAP[&notes=]},
 * the manifest's {@code unprotected.notes}); JSON output is {@code {"notes": ...}} as the PBS client prints.
 */
@Command(name = "notes", description = "Show or update the notes of a snapshot on a server.",
        subcommands = {SnapshotNotesCommand.Show.class, SnapshotNotesCommand.Update.class})
public final class SnapshotNotesCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    /** {@code jpbs snapshot notes show SNAPSHOT}. */
    @Command(name = "show", description = "Print the notes of SNAPSHOT.")
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
            Renderer r = output.renderer(ctx);
            try (PbsClient pbs = repo.serverClient(ctx, "snapshot notes show")) {
                JsonNode notes = pbs.get(pbs.datastorePath() + "/notes", Api.snapshot(snap.ref()));
                r.value(JsonNodeFactory.instance.objectNode().set("notes", notes), notes.asText(""));
            }
            return 0;
        }
    }

    /** {@code jpbs snapshot notes update SNAPSHOT NOTES}. */
    @Command(name = "update", description = "Replace the notes of SNAPSHOT.")
    public static final class Update implements Callable<Integer> {
        @Mixin
        HelpOption help;

        @Mixin
        RepositoryOptions repo;

        @Mixin
        SnapshotArgs snap;

        @Parameters(index = "1", paramLabel = "NOTES", description = "The new notes (may span lines).")
        String notes;

        private final CliContext ctx;

        /** Creates the command. */
        public Update(CliContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() throws Exception {
            try (PbsClient pbs = repo.serverClient(ctx, "snapshot notes update")) {
                pbs.put(pbs.datastorePath() + "/notes", Api.snapshot(snap.ref()).add("notes", notes));
            }
            return 0;
        }
    }
}
