package org.jpbs.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.jpbs.client.remote.Credentials;
import org.jpbs.client.remote.Repository;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.JpbsServer;
import org.jpbs.server.TestServer;

/**
 * The server's {@link TestServer} (from the server's test-jar) with one datastore
 * {@code store1}, seen from the client side (repository strings, credentials, environment):
 * either with one static API token ({@link #startWithToken}) or with file-based users, tickets
 * and the full REST API ({@link #startWithUsers}: {@code root@pam} with a password and a token
 * {@code root@pam!net} with the DatastoreAdmin role).
 */
final class NetTestServer implements AutoCloseable {
    static final String STORE = "store1";
    static final String TOKEN_ID = "root@pam!net";
    static final String ROOT_PASSWORD = "root-password-1";
    private static final String STATIC_SECRET = "static-secret-42";

    final Path dir;
    final Path storePath;
    final JpbsServer server;
    final String tokenSecret;
    private final TestServer test;

    private NetTestServer(Path dir, TestServer test, String tokenSecret) {
        this.dir = dir;
        this.storePath = dir.resolve("ds");
        this.test = test;
        this.server = test.server;
        this.tokenSecret = tokenSecret;
    }

    /** A server that accepts exactly the token {@value #TOKEN_ID} with a fixed secret (every privilege). */
    static NetTestServer startWithToken(Path dir) throws IOException {
        try {
            return new NetTestServer(dir, TestServer.startWithTokens(dir, Map.of(TOKEN_ID, STATIC_SECRET),
                    Map.of(STORE, dir.resolve("ds")), org.jpbs.server.http.ServerTimeouts.fromSystemProperties()),
                    STATIC_SECRET);
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    /** A server with users and tickets: {@code root@pam} (password) and its token {@value #TOKEN_ID}. */
    static NetTestServer startWithUsers(Path dir) throws IOException {
        try {
            TestServer t = TestServer.startWithUsers(dir, STORE, dir.resolve("ds"), "root@pam", ROOT_PASSWORD, "net");
            return new NetTestServer(dir, t, t.userTokenSecret);
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    /** The same server started again (same config, certificate and datastore; a new port), as after a crash. */
    NetTestServer restart() throws IOException {
        server.close();
        try {
            return new NetTestServer(dir, TestServer.startAgainWithUsers(dir, STORE, storePath, "root@pam", tokenSecret),
                    tokenSecret);
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
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
        test.awaitIdle();
    }

    @Override
    public void close() {
        test.close();
    }
}
