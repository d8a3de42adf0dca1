package org.jpbs.cli.admin;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.UsageException;
import org.jpbs.cli.commands.RepositoryOptions;
import org.jpbs.datastore.config.DatastoreConfig;
import org.jpbs.datastore.config.DatastoreConfigStore;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.JpbsServer;
import org.jpbs.server.ServerConfig;
import org.jpbs.server.api.JpbsRestHandler;
import org.jpbs.server.auth.FileAuthenticator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code jpbs serve}: runs the HTTPS server (REST API, backup and reader protocols, {@code docs/protocol.md}) until it is stopped (SIGINT/SIGTERM). On first start a self-signed
 * certificate is created in the config directory; its SHA-256 fingerprint is printed on stderr.
 * The datastores are those of {@code <config>/datastore.cfg} (changes are seen at once, see
 * {@code jpbs datastore}) plus the {@code --datastore NAME=PATH} ones; without either, the
 * default local datastore is served as {@code default}.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Run the backup server (HTTPS, PBS backup/reader protocols and REST API).",
            "Prints the certificate fingerprint and the listening address on stderr."})
public final class ServeCommand implements Callable<Integer> {
    /** How often the scheduler looks for due jobs ({@code docs/jobs.md#the-scheduler}). */
    static final java.time.Duration SCHEDULER_TICK = java.time.Duration.ofSeconds(5);

    private final CliContext ctx;

    @Option(names = "--datastore", paramLabel = "NAME=PATH",
            description = {"A datastore to serve besides those of datastore.cfg (repeatable); created if PATH",
                "does not exist. Default, if datastore.cfg has none: default=~/" + RepositoryOptions.DEFAULT_RELATIVE})
    List<String> datastores;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "8007",
            description = "TCP port (default ${DEFAULT-VALUE}; 0 = any free port).")
    int port;

    @Option(names = "--bind", paramLabel = "ADDR",
            description = "Address to listen on (default: all addresses; 127.0.0.1 for loopback only).")
    String bind;

    @Mixin
    ConfigDirOption config;

    public ServeCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        // everything is checked before anything is created: a usage error leaves no trace
        if (port < 0 || port > 65535) {
            throw new UsageException("--port must be 0..65535, got " + port);
        }
        checkBind();
        try {
            org.jpbs.s3.client.S3Connector.checkTlsSetting();
        } catch (IllegalStateException e) {
            throw new UsageException(e.getMessage());
        }
        Map<String, Path> given = parseDatastores();
        Path configDir = config.resolve(ctx);
        if (Files.exists(configDir) && !Files.isDirectory(configDir)) {
            throw new IllegalArgumentException("config directory " + configDir + " is not a directory");
        }
        Map<String, Path> stores = new LinkedHashMap<>(given);
        List<DatastoreConfig> inFile = Files.isDirectory(configDir)
                ? DatastoreConfigStore.open(configDir).read().datastores() : List.of();
        if (given.isEmpty() && inFile.isEmpty()) {
            stores.put("default", ctx.home().resolve(RepositoryOptions.DEFAULT_RELATIVE));
        }
        for (DatastoreConfig dc : inFile) {
            // a name in datastore.cfg wins: its --datastore twin is neither created nor served
            Path shadowed = stores.remove(dc.name());
            if (shadowed != null) {
                ctx.err().println("jpbs serve: warning: --datastore " + dc.name() + "=" + shadowed
                        + " is ignored: datastore.cfg defines '" + dc.name() + "' at " + dc.path());
            }
            // served anyway (the file may be fixed while running), but say so now, not per request
            if (!Files.isDirectory(dc.path().resolve(".chunks"))) {
                ctx.err().println("jpbs serve: warning: datastore '" + dc.name() + "' of datastore.cfg: " + dc.path()
                        + " is not a datastore (no .chunks directory); requests to it will fail");
            }
        }
        for (Map.Entry<String, Path> e : stores.entrySet()) {
            Path p = e.getValue();
            if (Files.exists(p) && !Files.isDirectory(p)) {
                throw new IllegalArgumentException("datastore '" + e.getKey() + "': " + p + " is not a directory");
            }
            Path up = p.getParent();
            while (up != null && !Files.exists(up)) {
                up = up.getParent();
            }
            if (!Files.exists(p) && up != null && !Files.isDirectory(up)) {
                throw new IllegalArgumentException("datastore '" + e.getKey() + "': cannot create " + p + ": " + up
                        + " is not a directory");
            }
        }
        checkPortFree();
        Files.createDirectories(configDir);
        for (Map.Entry<String, Path> e : stores.entrySet()) {
            if (!Files.isDirectory(e.getValue().resolve(".chunks"))) {
                try {
                    Datastore.openOrCreate(e.getValue());
                } catch (IOException | RuntimeException ex) {
                    throw new IOException("datastore '" + e.getKey() + "': cannot create " + e.getValue() + ": "
                            + (ex.getMessage() == null ? ex.toString() : ex.getMessage()), ex);
                }
                ctx.err().println("created datastore '" + e.getKey() + "' at " + e.getValue());
            }
        }
        ServerConfig cfg = new ServerConfig(configDir, stores, bind, port);
        firstStartNotice(configDir).ifPresent(n -> {
            ctx.err().println(n);
            ctx.err().flush();
        });
        FileAuthenticator auth = FileAuthenticator.open(configDir);
        CountDownLatch stopped = new CountDownLatch(1);
        try (JpbsServer server = JpbsServer.start(cfg, auth, withJobs(JpbsRestHandler.create(cfg, auth)))) {
            Thread hook = new Thread(() -> {
                server.close();
                ctx.err().println("jpbs serve: stopped; datastore.cfg was read "
                        + server.services().datastores().configReads() + " times");
                ctx.err().flush();
                stopped.countDown();
            }, "jpbs-serve-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            server.services().scheduler().syncTasks(SyncEngineTasks.of(configDir));
            server.services().scheduler().start(new org.jpbs.server.api.ScheduledJobs(server.services(), configDir)::all,
                    SCHEDULER_TICK);
            ctx.err().println("jpbs serve: listening on " + server.address() + " (config " + configDir + ")");
            ctx.err().println("jpbs serve: certificate fingerprint " + server.fingerprint());
            ctx.err().println("jpbs serve: datastores " + stores.keySet() + " and those of "
                    + configDir.resolve(DatastoreConfigStore.FILE));
            ctx.err().flush();
            stopped.await();
        }
        return 0;
    }

    /** {@code --datastore NAME=PATH} options, checked (names valid and unique), in order. */
    private Map<String, Path> parseDatastores() {
        Map<String, Path> stores = new LinkedHashMap<>();
        if (datastores == null) {
            return stores;
        }
        for (String spec : datastores) {
            int eq = spec.indexOf('=');
            if (eq <= 0 || eq == spec.length() - 1) {
                throw new UsageException("--datastore '" + spec + "': expected NAME=PATH");
            }
            String name = spec.substring(0, eq);
            try {
                DatastoreConfig.checkName(name);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--datastore '" + spec + "': " + e.getMessage(), e);
            }
            if (stores.put(name, Path.of(spec.substring(eq + 1)).toAbsolutePath().normalize()) != null) {
                throw new UsageException("--datastore: name '" + name + "' given twice");
            }
        }
        return stores;
    }

    /** {@code --bind} must be an address or a host name that resolves. */
    private void checkBind() {
        if (bind == null) {
            return;
        }
        if (bind.isBlank()) {
            throw new UsageException("--bind must not be empty");
        }
        try {
            InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new UsageException("--bind '" + bind + "': unknown host or invalid address", e);
        }
    }

    /**
     * Refuses a port that is already taken before anything is created (the server binds again,
     * so a port taken in between is still reported, by {@link JpbsServer#start}).
     */
    private void checkPortFree() throws IOException {
        if (port == 0) {
            return;
        }
        InetSocketAddress addr = bind == null ? new InetSocketAddress(port) : new InetSocketAddress(bind, port);
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(addr);
        } catch (IOException e) {
            String why = e.getMessage() != null && e.getMessage().toLowerCase(Locale.ROOT).contains("already in use")
                    ? "address already in use (another server on port " + port + "?)" : e.getMessage();
            throw new IOException("cannot listen on " + (bind == null ? "0.0.0.0:" + port + " (all addresses)"
                    : bind + ":" + port) + ": " + why, e);
        }
    }

    /**
     * The line said before the first start's key generation (RSA keys take seconds on a slow
     * machine, and nothing else would be printed meanwhile), if the certificate does not exist yet.
     */
    public static java.util.Optional<String> firstStartNotice(Path configDir) {
        if (Files.exists(configDir.resolve(org.jpbs.server.tls.ServerCertificate.CERT_FILE))) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("jpbs serve: first start: creating the TLS certificate and ticket signing keys in "
                + configDir + " (this can take a few seconds)...");
    }

    /** The REST handler with garbage collection started as a task by {@code POST .../gc}. */
    private static JpbsRestHandler withJobs(JpbsRestHandler h) {
        return h.withServices(h.services().withJobs(new org.jpbs.server.api.LocalDatastoreJobs("root@pam", h.services().budget())));
    }
}
