package org.jpbs.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.jpbs.client.remote.Credentials;
import org.jpbs.client.remote.Repository;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.JpbsServer;
import org.jpbs.server.ServerConfig;
import org.jpbs.server.api.JpbsRestHandler;
import org.jpbs.server.auth.AuthConfig;
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.server.auth.StaticTokenAuthenticator;

/**
 * A jpbs server on 127.0.0.1 with an ephemeral port and one fresh datastore {@code store1}:
 * either with one static API token ({@link #startWithToken}) or with file-based users, tickets
 * and the full REST API ({@link #startWithUsers}: {@code root@pam} with a password and a token
 * {@code root@pam!net} with the DatastoreAdmin role).
 */
final class NetTestServer implements AutoCloseable {
    static final String STORE = "store1";
    static final String TOKEN_ID = "root@pam!net";
    static final String ROOT_PASSWORD = "root-password-1";

    final Path dir;
    final Path storePath;
    final JpbsServer server;
    final String tokenSecret;

    private NetTestServer(Path dir, Path storePath, JpbsServer server, String tokenSecret) {
        this.dir = dir;
        this.storePath = storePath;
        this.server = server;
        this.tokenSecret = tokenSecret;
    }

    private static Path createStore(Path dir) throws IOException {
        Path p = dir.resolve("ds");
        if (!Files.isDirectory(p.resolve(".chunks"))) {
            Datastore.create(p, SyncLevel.NONE);
        }
        return p;
    }

    /** A server that accepts exactly the token {@value #TOKEN_ID} with a fixed secret (every privilege). */
    static NetTestServer startWithToken(Path dir) throws IOException {
        Path ds = createStore(dir);
        String secret = "static-secret-42";
        JpbsServer s = JpbsServer.start(new ServerConfig(dir.resolve("config"), Map.of(STORE, ds), "127.0.0.1", 0),
                new StaticTokenAuthenticator(Map.of(TOKEN_ID, secret)));
        return new NetTestServer(dir, ds, s, secret);
    }

    /** A server with users and tickets: {@code root@pam} (password) and its token {@value #TOKEN_ID}. */
    static NetTestServer startWithUsers(Path dir) throws IOException {
        Path ds = createStore(dir);
        Path config = dir.resolve("config");
        Files.createDirectories(config);
        AuthConfig cfg = AuthConfig.open(config);
        cfg.setPassword("root@pam", ROOT_PASSWORD);
        String secret = cfg.createToken("root@pam", "net", null);
        cfg.updateAcl("/datastore", TOKEN_ID, "DatastoreAdmin", true, false);
        return serveUsers(dir, ds, config, secret);
    }

    /** The same server started again (same config, certificate and datastore; a new port), as after a crash. */
    NetTestServer restart() throws IOException {
        server.close();
        return serveUsers(dir, storePath, dir.resolve("config"), tokenSecret);
    }

    private static NetTestServer serveUsers(Path dir, Path ds, Path config, String secret) throws IOException {
        FileAuthenticator auth = FileAuthenticator.open(config);
        ServerConfig sc = new ServerConfig(config, Map.of(STORE, ds), "127.0.0.1", 0);
        JpbsRestHandler h = JpbsRestHandler.create(sc, auth).withFailureDelays(Duration.ZERO, Duration.ZERO);
        // gc, prune and verify as tasks, as 'jpbs serve' runs them
        h = h.withServices(h.services().withJobs(new org.jpbs.server.api.LocalDatastoreJobs("root@pam")));
        JpbsServer s = JpbsServer.start(sc, auth, h);
        return new NetTestServer(dir, ds, s, secret);
    }

    int port() {
        return server.port();
    }

    String fingerprint() {
        return server.fingerprint();
    }

    /** {@code root@pam!net@127.0.0.1:<port>:store1}. */
    String tokenRepository() {
        return TOKEN_ID + "@127.0.0.1:" + port() + ":" + STORE;
    }

    /** {@code root@pam@127.0.0.1:<port>:store1}. */
    String userRepository() {
        return "root@pam@127.0.0.1:" + port() + ":" + STORE;
    }

    Repository repository() {
        return Repository.parse(tokenRepository());
    }

    Credentials credentials() {
        return new Credentials(tokenSecret, fingerprint());
    }

    /** PBS_REPOSITORY (token), PBS_PASSWORD and PBS_FINGERPRINT for the command line. */
    Map<String, String> env() {
        Map<String, String> env = new HashMap<>();
        env.put("PBS_REPOSITORY", tokenRepository());
        env.put("PBS_PASSWORD", tokenSecret);
        env.put("PBS_FINGERPRINT", fingerprint());
        return env;
    }

    Datastore datastore() throws IOException {
        return Datastore.open(storePath);
    }

    /** The manifest of a finished snapshot, read from the datastore directly. */
    BackupManifest manifest(BackupSnapshotRef ref) throws IOException {
        return datastore().openSnapshot(ref).manifest();
    }

    /** {@code unprotected.chunk_upload_stats.count} of a snapshot: chunks uploaded by its backup session. */
    long uploadedChunks(BackupSnapshotRef ref) throws IOException {
        return manifest(ref).unprotected().path("chunk_upload_stats").path("count").asLong(-1);
    }

    /** Waits (up to 60 s) until every session was cleaned up (an aborted backup is removed then). */
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
