package org.jpbs.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.api.JpbsRestHandler;
import org.jpbs.server.api.LocalDatastoreJobs;
import org.jpbs.server.auth.AuthConfig;
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.server.auth.StaticTokenAuthenticator;
import org.jpbs.server.http.DefaultRestHandler;
import org.jpbs.server.http.ServerTimeouts;
import org.jpbs.testkit.DatastorePool;

/**
 * The one test server of the project (shipped to the cli tests in the server's test-jar): a
 * jpbs server on 127.0.0.1 with an ephemeral port and fresh datastores, either with static API
 * tokens and the minimal REST handler ({@link #start}, {@link #startWithTokens}) or with
 * file-based users, tickets, ACLs and the full REST API with GC/prune/verify tasks
 * ({@link #startWithUsers}). {@link #backup} and {@link #reader} open raw protocol clients
 * ({@link PbsTestClient}).
 */
public final class TestServer implements AutoCloseable {
    /** The token of {@link #start} (the capture's). */
    public static final String TOKEN_ID = "root@pam!capture";
    public static final String SECRET = "capture-token-secret";
    public static final String TOKEN = TOKEN_ID + ":" + SECRET;
    /** A second token of {@link #start}, without any group. */
    public static final String OTHER_TOKEN_ID = "other@pbs!t1";
    public static final String OTHER_TOKEN = OTHER_TOKEN_ID + ":other-secret";

    public final Path dir;
    public final JpbsServer server;
    public final Map<String, Datastore> stores = new LinkedHashMap<>();
    /** The secret of the user's token made by {@link #startWithUsers}, else null. */
    public final String userTokenSecret;

    private TestServer(Path dir, JpbsServer server, String userTokenSecret) {
        this.dir = dir;
        this.server = server;
        this.userTokenSecret = userTokenSecret;
    }

    /** Creates the datastores {@code dir/ds-<name>} (if missing) and starts a server with {@link #TOKEN} and {@link #OTHER_TOKEN}. */
    public static TestServer start(Path dir, String... storeNames) throws Exception {
        return start(dir, ServerTimeouts.fromSystemProperties(), storeNames);
    }

    /** As {@link #start(Path, String...)} with the given idle timeouts. */
    public static TestServer start(Path dir, ServerTimeouts timeouts, String... storeNames) throws Exception {
        return startStatic(dir, timeouts, UnaryOperator.identity(), storeNames);
    }

    /** As {@link #start(Path, String...)} with the services changed by {@code services} (e.g. a small thread budget). */
    static TestServer startWithServices(Path dir, UnaryOperator<ServerServices> services, String... storeNames)
            throws Exception {
        return startStatic(dir, ServerTimeouts.fromSystemProperties(), services, storeNames);
    }

    /** As {@link #start(Path, String...)} with GC, prune and verify implemented (the server's job hook). */
    static TestServer startWithJobs(Path dir, String... storeNames) throws Exception {
        return startStatic(dir, ServerTimeouts.fromSystemProperties(),
                s -> s.withJobs(new LocalDatastoreJobs("root@pam", s.budget())), storeNames);
    }

    private static TestServer startStatic(Path dir, ServerTimeouts timeouts, UnaryOperator<ServerServices> services,
                                          String... storeNames)
            throws Exception {
        Map<String, Path> paths = new LinkedHashMap<>();
        for (String n : storeNames) {
            paths.put(n, dir.resolve("ds-" + n));
        }
        return startWithTokens(dir, Map.of(TOKEN_ID, SECRET, OTHER_TOKEN_ID, "other-secret"), paths, timeouts, services);
    }

    /**
     * A server accepting exactly {@code tokens} (token id to secret, every privilege) over the
     * datastores {@code stores} (name to directory, created if missing).
     */
    public static TestServer startWithTokens(Path dir, Map<String, String> tokens, Map<String, Path> stores,
                                             ServerTimeouts timeouts) throws Exception {
        return startWithTokens(dir, tokens, stores, timeouts, UnaryOperator.identity());
    }

    private static TestServer startWithTokens(Path dir, Map<String, String> tokens, Map<String, Path> stores,
                                              ServerTimeouts timeouts, UnaryOperator<ServerServices> services)
            throws Exception {
        createStores(stores);
        ServerConfig config = new ServerConfig(dir.resolve("config"), stores, "127.0.0.1", 0);
        StaticTokenAuthenticator auth = new StaticTokenAuthenticator(tokens);
        JpbsServer s = JpbsServer.start(config, auth, new DefaultRestHandler(auth),
                services.apply(ServerServices.open(config)), timeouts);
        return opened(new TestServer(dir, s, null), stores);
    }

    /**
     * A server with users, tickets and ACLs and the full REST API (gc, prune and verify run as
     * tasks, as {@code jpbs serve} runs them): {@code user} with {@code password}, and its token
     * {@code user!tokenName} (secret in {@link #userTokenSecret}) with the DatastoreAdmin role on
     * {@code /datastore}; one datastore {@code store} at {@code storePath}.
     */
    public static TestServer startWithUsers(Path dir, String store, Path storePath, String user, String password,
                                            String tokenName) throws Exception {
        Map<String, Path> stores = Map.of(store, storePath);
        createStores(stores);
        Path config = dir.resolve("config");
        Files.createDirectories(config);
        AuthConfig cfg = AuthConfig.open(config);
        cfg.setPassword(user, password);
        String secret = cfg.createToken(user, tokenName, null);
        cfg.updateAcl("/datastore", user + "!" + tokenName, "DatastoreAdmin", true, false);
        return serveUsers(dir, stores, user, secret);
    }

    /**
     * A server made by {@link #startWithUsers} started again on its directory (same users,
     * certificate and datastore; a new port), as after a crash.
     */
    public static TestServer startAgainWithUsers(Path dir, String store, Path storePath, String user, String secret)
            throws Exception {
        return serveUsers(dir, Map.of(store, storePath), user, secret);
    }

    private static TestServer serveUsers(Path dir, Map<String, Path> stores, String user, String secret)
            throws Exception {
        Path config = dir.resolve("config");
        FileAuthenticator auth = FileAuthenticator.open(config);
        ServerConfig sc = new ServerConfig(config, stores, "127.0.0.1", 0);
        JpbsRestHandler h = JpbsRestHandler.create(sc, auth).withFailureDelays(Duration.ZERO, Duration.ZERO);
        h = h.withServices(h.services().withJobs(new LocalDatastoreJobs(user, h.services().budget())));
        return opened(new TestServer(dir, JpbsServer.start(sc, auth, h), secret), stores);
    }

    private static void createStores(Map<String, Path> stores) throws Exception {
        for (Path p : stores.values()) {
            if (!Files.isDirectory(p.resolve(".chunks"))) {
                DatastorePool.create(p, SyncLevel.NONE); // Datastore.create, or a recycled empty one
            }
        }
    }

    private static TestServer opened(TestServer t, Map<String, Path> stores) throws Exception {
        for (Map.Entry<String, Path> e : stores.entrySet()) {
            t.stores.put(e.getKey(), Datastore.open(e.getValue()));
        }
        return t;
    }

    /** The datastore {@code name}. */
    public Datastore ds(String name) {
        return stores.get(name);
    }

    public int port() {
        return server.port();
    }

    /** The server certificate's SHA-256 fingerprint. */
    public String fingerprint() {
        return server.fingerprint();
    }

    /** A client connected and upgraded to the backup protocol. */
    PbsTestClient backup(String query) throws Exception {
        PbsTestClient c = PbsTestClient.connect(port(), server.fingerprint(), PbsTestClient.BACKUP);
        c.upgradeOrFail("/api2/json/backup", query, TOKEN);
        return c;
    }

    /** A client connected and upgraded to the reader protocol. */
    PbsTestClient reader(String query) throws Exception {
        PbsTestClient c = PbsTestClient.connect(port(), server.fingerprint(), PbsTestClient.READER);
        c.upgradeOrFail("/api2/json/reader", query, TOKEN);
        return c;
    }

    /** Waits (up to 60 s) until no session is live, i.e. every closed connection was cleaned up. */
    public void awaitIdle() throws InterruptedException {
        for (int i = 0; i < 600 && server.activeSessions() > 0; i++) {
            Thread.sleep(100);
        }
        if (server.activeSessions() > 0) {
            throw new AssertionError(server.activeSessions() + " sessions still live after 60 s");
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
