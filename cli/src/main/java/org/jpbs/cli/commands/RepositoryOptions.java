package org.jpbs.cli.commands;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.admin.ConfigDirOption;
import org.jpbs.client.remote.Credentials;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.client.remote.Repository;
import org.jpbs.datastore.config.DatastoreConfig;
import org.jpbs.datastore.config.DatastoreConfigFile;
import org.jpbs.datastore.config.DatastoreConfigStore;
import org.jpbs.datastore.config.Operation;
import org.jpbs.datastore.snapshot.Datastore;
import picocli.CommandLine.Option;

/**
 * The {@code --repository} and {@code --fingerprint} options shared by every command that uses
 * a datastore.
 *
 * <p>Resolution: {@code --repository}; else {@code $PBS_REPOSITORY} if it is a local path
 * (starts with {@code /} or {@code .}) or a server repository (has a {@code host:} part); else
 * {@code ~/.local/share/jpbs/datastore}. A repository string is a server repository when it has
 * the form {@code [[user@realm[!token]@]host[:port]:]datastore} with a host (spec
 * {@code pbs-protocol.md} §4.2); otherwise it is a local directory. For a server the password or
 * token secret comes from {@code $PBS_PASSWORD} (or {@code $PBS_PASSWORD_FILE}) and the trusted
 * certificate fingerprint from {@code --fingerprint} or {@code $PBS_FINGERPRINT}. The default
 * local location is created on first use; an explicitly given local repository is created only
 * by {@code backup}.
 */
public final class RepositoryOptions {
    /** The default datastore below the home directory. */
    public static final String DEFAULT_RELATIVE = ".local/share/jpbs/datastore";

    @Option(names = "--repository", paramLabel = "REPO",
            description = "Datastore directory, or a server [[user@realm[!token]@]host[:port]:]datastore."
                    + " Default: $PBS_REPOSITORY, else ~/" + DEFAULT_RELATIVE + ".")
    String repository;

    @Option(names = "--fingerprint", paramLabel = "FP",
            description = "Trust the server certificate with this SHA-256 fingerprint (ab:cd:...; default: $PBS_FINGERPRINT).")
    String fingerprint;

    /** The datastore path and whether it is the implicit default location. */
    public record Location(Path path, boolean isDefault) {}

    /**
     * The repository: local or remote.
     *
     * @throws IllegalArgumentException if {@code --repository} or {@code $PBS_REPOSITORY} is malformed
     */
    public Repository resolve(CliContext ctx) {
        if (repository != null) {
            if (repository.isEmpty()) {
                throw new IllegalArgumentException("--repository: empty path");
            }
            try {
                return Repository.parse(repository);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--repository: " + e.getMessage(), e);
            }
        }
        String env = ctx.getenv("PBS_REPOSITORY");
        if (env != null && !env.isEmpty()) {
            Repository r;
            try {
                r = Repository.parse(env);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("PBS_REPOSITORY: " + e.getMessage(), e);
            }
            if (r.isRemote() || env.startsWith("/") || env.startsWith(".")) {
                return r;
            }
        }
        return Repository.local(ctx.home().resolve(DEFAULT_RELATIVE));
    }

    /** True if the repository is a server. */
    public boolean isRemote(CliContext ctx) {
        return resolve(ctx).isRemote();
    }

    /**
     * A client for the server repository (password/token secret and fingerprint from the
     * options and environment).
     *
     * @throws IllegalArgumentException if the repository is local, or no password is set
     */
    public PbsClient client(CliContext ctx) {
        Repository r = resolve(ctx);
        return new PbsClient(r, Credentials.fromEnv(ctx.env(), fingerprint));
    }

    /**
     * Where the local datastore is.
     *
     * @throws IllegalArgumentException if the repository is a server
     */
    public Location location(CliContext ctx) {
        Repository r = resolve(ctx);
        if (r.isRemote()) {
            throw new IllegalArgumentException("repository " + r + " is a server; this command works on a local datastore only");
        }
        return new Location(r.localPath(), repository == null && !isLocalEnv(ctx));
    }

    private static boolean isLocalEnv(CliContext ctx) {
        String env = ctx.getenv("PBS_REPOSITORY");
        return env != null && (env.startsWith("/") || env.startsWith("."));
    }

    /**
     * Opens the local datastore for an operation. If {@code datastore.cfg} (in
     * {@code $JPBS_CONFIG_DIR} or {@code ~/.config/jpbs}) has a datastore at this path, its
     * maintenance mode must allow the operation (spec {@code pbs-datastore-ops.md} §4.3);
     * nothing is created or touched otherwise.
     *
     * @param create create it if missing (always done for the default location)
     * @param op     {@link Operation#WRITE} for backups, {@link Operation#READ} for restores and listings
     * @throws IOException e.g. "not a datastore: PATH (no .chunks directory)", or the
     *                     maintenance refusal "datastore 'x' is in offline maintenance mode: ..."
     */
    public Datastore open(CliContext ctx, boolean create, Operation op) throws IOException {
        Location loc = location(ctx);
        checkMaintenance(ctx, loc.path(), op);
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

    /**
     * Refuses {@code op} on the datastore at {@code path} if {@code datastore.cfg} names it with
     * a maintenance mode that does not allow it. A missing config file allows everything.
     *
     * @throws IOException the refusal, or if the config cannot be read or parsed
     */
    static void checkMaintenance(CliContext ctx, Path path, Operation op) throws IOException {
        Path file = ConfigDirOption.defaultDir(ctx).resolve(DatastoreConfigStore.FILE);
        if (!Files.isRegularFile(file)) {
            return;
        }
        DatastoreConfigFile cfg;
        try {
            cfg = DatastoreConfigFile.parse(Files.readString(file), file.toString());
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
        Path me = canonical(path);
        for (DatastoreConfig c : cfg.datastores()) {
            if (canonical(c.path()).equals(me)) {
                Optional<String> refusal = c.refusal(op);
                if (refusal.isPresent()) {
                    throw new IOException(refusal.get());
                }
            }
        }
    }

    private static Path canonical(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p.toAbsolutePath().normalize();
        }
    }
}
