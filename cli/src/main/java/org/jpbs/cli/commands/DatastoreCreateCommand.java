package org.jpbs.cli.commands;

import org.jpbs.cli.UsageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.admin.ConfigDirOption;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.config.DatastoreConfigStore;
import org.jpbs.datastore.config.PathConflictException;
import org.jpbs.datastore.config.DatastoreTuning;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.s3.client.S3Options;
import org.jpbs.s3.config.S3ConfigStore;
import org.jpbs.s3.store.DatastoreCreator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs datastore create [NAME] PATH}: creates an empty datastore (the {@code .chunks}
 * directory with its 65536 subdirectories and {@code .lock}, {@code docs/formats.md#chunk-store-chunks}, {@code docs/formats.md#datastore-layout}).
 * With a NAME it is also added to {@code datastore.cfg} in the config directory ({@code docs/datastore-config.md#datastorecfg}) with the given options, so {@code jpbs serve} serves it;
 * {@code --reuse} registers an existing datastore instead of creating one. The config is
 * checked before anything is created; if writing it fails, the new datastore is removed again.
 */
@Command(name = "create", description = {"Create a new, empty datastore at PATH.",
    "With NAME, also add it to datastore.cfg (served by 'jpbs serve')."})
public final class DatastoreCreateCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Parameters(arity = "1..2", paramLabel = "[NAME] PATH",
            description = "Datastore name (3..32 characters) and directory (must not be a datastore yet);"
                    + " alone, PATH must be written as a path (/srv/store, ./store, ~/store).")
    List<String> args;

    @Option(names = "--sync-level", paramLabel = "LEVEL",
            description = "How hard writes are pushed to disk: none, file or filesystem (default: filesystem).")
    String syncLevel;

    @Option(names = "--backend", paramLabel = "SPEC",
            description = "type=filesystem (default), or type=s3 with client=ENDPOINT, bucket=BUCKET and optionally"
                    + " max-cache-size=SIZE, comma-separated: chunks and snapshot files in an S3 bucket, PATH is"
                    + " the local cache (docs/s3.md).")
    String backend;

    @Option(names = {"--reuse", "--reuse-datastore"},
            description = "With NAME: register an existing datastore at PATH instead of creating one.")
    boolean reuse;

    @Option(names = "--overwrite-in-use", description = "S3 backend: take over a bucket datastore that another"
            + " server uses (its .in-use marker); that server must no longer write to it.")
    boolean overwriteInUse;

    @Mixin
    DatastoreOptions options;

    @Mixin
    ConfigDirOption configDir;

    @Mixin
    OutputOptions output;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public DatastoreCreateCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    /**
     * A datastore without NAME is still refused inside or around a configured one, or inside any
     * datastore directory ({@code docs/datastore-config.md#overlapping-paths}): a usage error.
     */
    private static void refuseNested(Path configDir, Path path) throws IOException {
        java.util.Optional<PathConflictException> c = DatastoreConfigStore.open(configDir).read().pathConflict(path);
        if (c.isPresent()) {
            throw new UsageException("PATH: " + c.get().getMessage(), c.get());
        }
        java.util.Optional<PathConflictException> inside = PathConflictException.checkEnclosing(path);
        if (inside.isPresent()) {
            throw new UsageException("PATH: " + inside.get().getMessage(), inside.get());
        }
    }

    @Override
    public Integer call() throws Exception {
        SyncLevel level = SyncLevel.DEFAULT;
        if (syncLevel != null) {
            try {
                level = SyncLevel.parse(syncLevel);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--sync-level: " + e.getMessage(), e);
            }
        }
        String pathArg = args.getLast();
        if (pathArg.isEmpty()) {
            throw new IllegalArgumentException("PATH must not be empty");
        }
        if (args.size() == 1 && !pathArg.contains("/") && !pathArg.startsWith(".") && !pathArg.startsWith("~")) {
            // one bare word is more likely a NAME without its PATH than a directory meant below '.'
            throw new UsageException("'" + pathArg + "' is a name, not a path: give NAME PATH (e.g. 'jpbs datastore create "
                    + pathArg + " /srv/" + pathArg + "'), or write the directory as a path (./" + pathArg + ")");
        }
        if (pathArg.equals("~") || pathArg.startsWith("~/")) {
            pathArg = ctx.home().resolve(pathArg.equals("~") ? "" : pathArg.substring(2)).toString();
        }
        Path path = Path.of(pathArg).toAbsolutePath().normalize();
        if (args.size() == 1) {
            if (reuse || !options.properties().isEmpty()) {
                throw new UsageException("--reuse and the datastore.cfg options need a NAME: create NAME PATH");
            }
            refuseNested(configDir.resolve(ctx), path);
            Datastore ds = Datastore.create(path, level);
            output.info(ctx, "created datastore " + ds.root());
            return 0;
        }
        if (overwriteInUse && backend == null) {
            throw new UsageException("--overwrite-in-use needs --backend type=s3,...");
        }
        Map<String, String> props = new LinkedHashMap<>(options.properties());
        if (syncLevel != null) {
            DatastoreTuning t = props.containsKey("tuning") ? DatastoreTuning.parse(props.get("tuning")) : DatastoreTuning.DEFAULTS;
            props.put("tuning", t.with("sync-level", level.text()).format());
        }
        Path dir = configDir.resolve(ctx);
        DatastoreCreator creator;
        try {
            creator = DatastoreCreator.check(dir, args.getFirst(), path, props, backend, reuse, overwriteInUse,
                    S3Options.defaults());
        } catch (DatastoreCreator.BadParameter e) {
            String msg = switch (e.param()) {
                case "name" -> "NAME";
                case "path" -> "PATH";
                default -> "--" + e.param();
            } + ": " + e.getMessage();
            if (e.syntax()) {
                throw new UsageException(msg, e);
            }
            throw new IllegalArgumentException(msg + " in " + dir.resolve(S3ConfigStore.FILE)
                    + " (add it with 'jpbs s3 endpoint create')", e);
        }
        creator.create();
        String name = creator.config().name();
        DatastoreConfigStore store = DatastoreConfigStore.open(dir);
        output.info(ctx, (reuse ? "added" : "created") + " datastore '" + name + "' at " + path + " (" + store.file() + ")");
        return 0;
    }
}
