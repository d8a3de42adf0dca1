package org.jpbs.cli.commands;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jpbs.cli.CliContext;
import org.jpbs.datastore.snapshot.Datastore;
import picocli.CommandLine.Option;

/**
 * The {@code --repository PATH} option shared by every command that uses a datastore.
 *
 * <p>Resolution: {@code --repository}; else {@code $PBS_REPOSITORY} if it is a local path
 * (starts with {@code /} or {@code .}; a PBS remote like {@code user@host:store} is ignored
 * here); else {@code ~/.local/share/jpbs/datastore}. The default location is created on first
 * use; an explicitly given repository is created only by {@code backup}.
 */
public final class RepositoryOptions {
    /** The default datastore below the home directory. */
    public static final String DEFAULT_RELATIVE = ".local/share/jpbs/datastore";

    @Option(names = "--repository", paramLabel = "PATH",
            description = "Datastore directory. Default: $PBS_REPOSITORY if it is a path, else ~/"
                    + DEFAULT_RELATIVE + ".")
    String repository;

    /** The datastore path and whether it is the implicit default location. */
    public record Location(Path path, boolean isDefault) {}

    /**
     * Where the datastore is.
     *
     * @throws IllegalArgumentException if {@code --repository} is not a local path
     */
    public Location location(CliContext ctx) {
        if (repository != null) {
            if (repository.isEmpty()) {
                throw new IllegalArgumentException("--repository: empty path");
            }
            if (!(repository.startsWith("/") || repository.startsWith(".")) && repository.contains(":")) {
                throw new IllegalArgumentException("--repository '" + repository
                        + "': remote repositories are not supported yet (give a local datastore path)");
            }
            return new Location(Path.of(repository), false);
        }
        String env = ctx.getenv("PBS_REPOSITORY");
        if (env != null && (env.startsWith("/") || env.startsWith("."))) {
            return new Location(Path.of(env), false);
        }
        return new Location(ctx.home().resolve(DEFAULT_RELATIVE), true);
    }

    /**
     * Opens the datastore.
     *
     * @param create create it if missing (always done for the default location)
     * @throws IOException e.g. "not a datastore: PATH (no .chunks directory)"
     */
    public Datastore open(CliContext ctx, boolean create) throws IOException {
        Location loc = location(ctx);
        if (create || loc.isDefault()) {
            if (loc.isDefault()) {
                Files.createDirectories(loc.path().getParent());
            }
            return Datastore.openOrCreate(loc.path());
        }
        if (!Files.exists(loc.path())) {
            throw new IOException("repository " + loc.path() + " does not exist (create it with 'jpbs datastore create "
                    + loc.path() + "' or run a backup)");
        }
        return Datastore.open(loc.path());
    }
}
