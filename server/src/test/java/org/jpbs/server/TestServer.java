package org.jpbs.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.auth.StaticTokenAuthenticator;

/** A server on 127.0.0.1 with an ephemeral port, fresh datastores and one API token (the capture's). */
final class TestServer implements AutoCloseable {
    static final String TOKEN_ID = "root@pam!capture";
    static final String SECRET = "capture-token-secret";
    static final String TOKEN = TOKEN_ID + ":" + SECRET;
    static final String OTHER_TOKEN_ID = "other@pbs!t1";
    static final String OTHER_TOKEN = OTHER_TOKEN_ID + ":other-secret";

    final Path dir;
    final JpbsServer server;
    final Map<String, Datastore> stores = new LinkedHashMap<>();

    private TestServer(Path dir, JpbsServer server) {
        this.dir = dir;
        this.server = server;
    }

    /** Creates the datastores under {@code dir} (if missing) and starts a server. */
    static TestServer start(Path dir, String... storeNames) throws Exception {
        return start(dir, org.jpbs.server.http.ServerTimeouts.fromSystemProperties(), storeNames);
    }

    /** As {@link #start(Path, String...)} with the given idle timeouts. */
    static TestServer start(Path dir, org.jpbs.server.http.ServerTimeouts timeouts, String... storeNames) throws Exception {
        return start(dir, timeouts, false, storeNames);
    }

    /** As {@link #start(Path, String...)} with GC, prune and verify implemented (the server's job hook). */
    static TestServer startWithJobs(Path dir, String... storeNames) throws Exception {
        return start(dir, org.jpbs.server.http.ServerTimeouts.fromSystemProperties(), true, storeNames);
    }

    private static TestServer start(Path dir, org.jpbs.server.http.ServerTimeouts timeouts, boolean jobs,
                                    String... storeNames) throws Exception {
        Map<String, Path> paths = new LinkedHashMap<>();
        for (String n : storeNames) {
            Path p = dir.resolve("ds-" + n);
            if (!Files.isDirectory(p.resolve(".chunks"))) {
                Datastore.create(p, SyncLevel.NONE);
            }
            paths.put(n, p);
        }
        ServerConfig config = new ServerConfig(dir.resolve("config"), paths, "127.0.0.1", 0);
        StaticTokenAuthenticator auth = new StaticTokenAuthenticator(Map.of(TOKEN_ID, SECRET, OTHER_TOKEN_ID, "other-secret"));
        JpbsServer s = JpbsServer.start(config, auth, new org.jpbs.server.http.DefaultRestHandler(auth),
                jobs ? ServerServices.open(config).withJobs(new org.jpbs.server.api.LocalDatastoreJobs("root@pam"))
                        : ServerServices.open(config), timeouts);
        TestServer t = new TestServer(dir, s);
        for (Map.Entry<String, Path> e : paths.entrySet()) {
            t.stores.put(e.getKey(), Datastore.open(e.getValue()));
        }
        return t;
    }

    Datastore ds(String name) {
        return stores.get(name);
    }

    int port() {
        return server.port();
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
    void awaitIdle() throws InterruptedException {
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
