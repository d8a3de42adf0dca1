package org.jpbs.cli.commands;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.UsageException;
import org.jpbs.cli.admin.ConfigDirOption;
import org.jpbs.client.http.TlsTrust;
import org.jpbs.cli.ConsolePrompts;
import org.jpbs.client.remote.ClientState;
import org.jpbs.client.remote.Credentials;
import org.jpbs.client.remote.FingerprintStore;
import org.jpbs.client.remote.TicketCache;
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
 * <p>Resolution: {@code --repository}; else {@code $PBS_REPOSITORY} if set and not empty; else
 * {@code ~/.local/share/jpbs/datastore}. A string written as a path (starts with {@code /},
 * {@code .} or {@code ~}, or has a {@code /} and no {@code :}) is a local datastore directory
 * ({@code ~} and {@code ~/} expand to the home directory). Anything else is a server repository
 * {@code [[user@realm[!token]@]host[:port]:]datastore} ({@code docs/protocol.md#authentication}); a
 * bare name such as {@code store1} means, as for proxmox-backup-client,
 * {@code root@pam@localhost:8007:store1}. For a server the password or
 * token secret comes from {@code $PBS_PASSWORD} (or {@code $PBS_PASSWORD_FILE}) and the trusted
 * certificate fingerprint from {@code --fingerprint} or {@code $PBS_FINGERPRINT}. The default
 * local location is created on first use; an explicitly given local repository is created only
 * by {@code backup}.
 */
public final class RepositoryOptions {
    /** The default datastore below the home directory. */
    public static final String DEFAULT_RELATIVE = ".local/share/jpbs/datastore";

    @Option(names = "--repository", paramLabel = "REPO",
            description = "A local datastore directory written as a path (/srv/store, ./store, ~/store),"
                    + " or a server [[user@realm[!token]@]host[:port]:]datastore; a bare name (store1) is"
                    + " root@pam@localhost:8007:store1, as for proxmox-backup-client."
                    + " Default: $PBS_REPOSITORY, else ~/" + DEFAULT_RELATIVE + ".")
    String repository;

    @Option(names = "--fingerprint", paramLabel = "FP",
            description = "Trust the server certificate with this SHA-256 fingerprint (ab:cd:...; default: $PBS_FINGERPRINT).")
    String fingerprint;

    /** The datastore path and whether it is the implicit default location. */
    public record Location(Path path, boolean isDefault) {}

    /**
     * The repository: local or remote (rule in the class comment; nothing set is ignored).
     *
     * @throws IllegalArgumentException if {@code --repository} or {@code $PBS_REPOSITORY} is malformed,
     *                                  naming which of the two
     */
    public Repository resolve(CliContext ctx) {
        if (repository != null) {
            return parse(ctx, "--repository", repository);
        }
        String env = ctx.getenv("PBS_REPOSITORY");
        if (env != null && !env.isEmpty()) {
            return parse(ctx, "PBS_REPOSITORY", env);
        }
        return Repository.local(ctx.home().resolve(DEFAULT_RELATIVE));
    }

    /** Parses one repository string, expanding a leading {@code ~} or {@code ~/} to the home directory. */
    private static Repository parse(CliContext ctx, String source, String text) {
        if (text.isEmpty()) {
            throw new UsageException(source + ": empty repository");
        }
        if (text.equals("~") || text.startsWith("~/")) {
            return Repository.local(ctx.home().resolve(text.equals("~") ? "" : text.substring(2)));
        }
        if (text.startsWith("~")) {
            throw new UsageException(source + ": '" + text + "': ~USER is not expanded; write the full path");
        }
        try {
            return Repository.parse(text);
        } catch (IllegalArgumentException e) {
            throw new UsageException(source + ": " + e.getMessage(), e);
        }
    }

    /** True if a repository was given with {@code --repository} or {@code $PBS_REPOSITORY} (not the default). */
    public boolean explicitOrEnv(CliContext ctx) {
        String env = ctx.getenv("PBS_REPOSITORY");
        return repository != null || (env != null && !env.isEmpty());
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
        checkFingerprint(ctx);
        return new PbsClient(r, Credentials.fromEnv(ctx.env(), fingerprint), clientState(ctx));
    }

    /**
     * A client for a command that works on a server only.
     *
     * @param command the command's name for the message, e.g. {@code "namespace create"}
     * @throws UsageException (exit 2) if the repository is a local directory
     */
    public PbsClient serverClient(CliContext ctx, String command) {
        Repository r = resolve(ctx);
        if (!r.isRemote()) {
            throw new UsageException("'jpbs " + command + "' works on a server repository only, not on the local "
                    + "directory " + r.localPath() + " (give --repository [[user@realm[!token]@]host[:port]:]datastore)");
        }
        return client(ctx);
    }

    /**
     * The ticket cache ({@code $XDG_RUNTIME_DIR/jpbs/tickets}, else {@code ~/.cache/jpbs/tickets}),
     * the fingerprint store ({@code $XDG_CONFIG_HOME/jpbs/fingerprints}, else
     * {@code ~/.config/jpbs/fingerprints}) and terminal prompts.
     */
    public static ClientState clientState(CliContext ctx) {
        return new ClientState(new TicketCache(TicketCache.defaultFile(ctx.env(), ctx.home())),
                new FingerprintStore(FingerprintStore.defaultFile(ctx.env(), ctx.home())),
                ConsolePrompts.forContext(ctx));
    }

    /**
     * A malformed {@code --fingerprint} or {@code $PBS_FINGERPRINT} (which stands for it) is a
     * usage error (exit 2), found before anything is done, as any malformed option value.
     */
    private void checkFingerprint(CliContext ctx) {
        String source = fingerprint != null ? "--fingerprint" : "PBS_FINGERPRINT";
        String fp = fingerprint != null ? fingerprint : ctx.getenv("PBS_FINGERPRINT");
        if (fp == null || fp.isBlank()) {
            return;
        }
        try {
            TlsTrust.pinned(fp);
        } catch (IllegalArgumentException e) {
            throw new UsageException(source + ": " + e.getMessage(), e);
        }
    }

    /**
     * Where the local datastore is.
     *
     * @throws IllegalArgumentException if the repository is a server
     */
    public Location location(CliContext ctx) {
        Repository r = resolve(ctx);
        if (r.isRemote()) {
            throw new UsageException("repository " + r + " is a server; this command works on a local datastore only");
        }
        String env = ctx.getenv("PBS_REPOSITORY");
        return new Location(r.localPath(), repository == null && (env == null || env.isEmpty()));
    }

    /**
     * Opens the local datastore for an operation. If {@code datastore.cfg} (in
     * {@code $JPBS_CONFIG_DIR} or {@code ~/.config/jpbs}) has a datastore at this path, its
     * maintenance mode must allow the operation ({@code docs/datastore-config.md#maintenance-mode});
     * nothing is created or touched otherwise.
     *
     * @param create create it if missing (always done for the default location)
     * @param op     {@link Operation#WRITE} for backups, {@link Operation#READ} for restores and listings
     * @throws IOException e.g. "not a datastore: PATH (no .chunks directory)", or the
     *                     maintenance refusal "datastore 'x' is in offline maintenance mode: ..."
     */
    public Datastore open(CliContext ctx, boolean create, Operation op) throws IOException {
        Location loc = location(ctx);
        Optional<DatastoreConfig> configured = checkMaintenance(ctx, loc.path(), op);
        if (configured.isPresent() && configured.get().property("backend").isPresent()) {
            // a configured datastore with a backend (s3): opened as jpbs serve opens it (docs/s3.md#opening)
            return new org.jpbs.s3.store.S3DatastoreOpener(ConfigDirOption.defaultDir(ctx)).open(configured.get());
        }
        if (create || loc.isDefault()) {
            boolean announce = loc.isDefault() && !Files.exists(loc.path().resolve(".chunks"));
            if (loc.isDefault()) {
                Files.createDirectories(loc.path().getParent());
            }
            Datastore ds = Datastore.openOrCreate(loc.path());
            if (announce) {
                // said once: the next run finds it
                ctx.err().println("jpbs: created the default datastore " + loc.path()
                        + " (no --repository or $PBS_REPOSITORY given)");
                ctx.err().flush();
            }
            return ds;
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
     * @return the configured datastore at {@code path}, if there is one
     * @throws IOException the refusal, or if the config cannot be read or parsed
     */
    static Optional<DatastoreConfig> checkMaintenance(CliContext ctx, Path path, Operation op) throws IOException {
        Path file = ConfigDirOption.defaultDir(ctx).resolve(DatastoreConfigStore.FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
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
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    private static Path canonical(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p.toAbsolutePath().normalize();
        }
    }
}
