package org.jpbs.cli.commands;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs datastore create PATH [--sync-level none|file|filesystem]}: creates an empty
 * datastore (the {@code .chunks} directory with its 65536 subdirectories and {@code .lock},
 * spec {@code pbs-formats.md} §6, §7).
 */
@Command(name = "create", description = "Create a new, empty datastore at PATH.")
public final class DatastoreCreateCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "PATH", description = "Directory of the new datastore (must not be a datastore yet).")
    String path;

    @Option(names = "--sync-level", paramLabel = "LEVEL", defaultValue = "filesystem",
            description = "How hard writes are pushed to disk: none, file or filesystem (default: ${DEFAULT-VALUE}).")
    String syncLevel;

    @Mixin
    OutputOptions output;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public DatastoreCreateCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        SyncLevel level;
        try {
            level = SyncLevel.parse(syncLevel);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--sync-level: " + e.getMessage(), e);
        }
        if (path.isEmpty()) {
            throw new IllegalArgumentException("PATH must not be empty");
        }
        Datastore ds = Datastore.create(Path.of(path), level);
        output.info(ctx, "created datastore " + ds.root());
        return 0;
    }
}
