package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.core.api.BackupSnapshotRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jpbs serve}: every refusal comes before anything is created, and says what is wrong. */
class ServeCliTest {
    @TempDir
    Path tmp;

    private CliRunner.Result serve(String... args) {
        String[] all = new String[args.length + 3];
        all[0] = "serve";
        all[1] = "--config-dir";
        all[2] = tmp.resolve("config").toString();
        System.arraycopy(args, 0, all, 3, args.length);
        return new CliRunner(tmp.resolve("home"), Map.of()).run(all);
    }

    private void oneLine(CliRunner.Result r, int exit, String... parts) throws IOException {
        assertEquals(exit, r.exit(), r.all());
        assertEquals(1, r.err().lines().count(), r.all());
        for (String p : parts) {
            assertTrue(r.err().contains(p), p + " in " + r.all());
        }
        // nothing created: no config directory, no datastore, no default datastore in the home
        try (var s = Files.list(tmp)) {
            assertEquals(java.util.List.of(), s.toList(), r.all());
        }
    }

    @Test
    void badDatastoreNameCreatesNothing() throws IOException {
        CliRunner.Result r = serve("--datastore", "good=" + tmp.resolve("good"), "--datastore", "b/d=" + tmp.resolve("bad"));
        oneLine(r, 2, "jpbs: error: --datastore 'b/d=");
        r = serve("--datastore", "x" + tmp.resolve("nothing"));
        oneLine(r, 2, "expected NAME=PATH");
        r = serve("--datastore", "one=" + tmp.resolve("a"), "--datastore", "one=" + tmp.resolve("b"));
        oneLine(r, 2, "name 'one' given twice");
    }

    @Test
    void unresolvableBindIsAUsageError() throws IOException {
        CliRunner.Result r = serve("--bind", "no-such-host.invalid", "--datastore", "store1=" + tmp.resolve("s"));
        oneLine(r, 2, "--bind 'no-such-host.invalid'", "unknown host");
    }

    @Test
    void badS3TlsSettingStopsTheServerBeforeItStarts() throws IOException {
        String old = System.getProperty("jpbs.s3.tls");
        System.setProperty("jpbs.s3.tls", "foo");
        try {
            CliRunner.Result r = serve("--bind", "127.0.0.1", "--port", "0", "--datastore", "store1=" + tmp.resolve("s"));
            oneLine(r, 2, "-Djpbs.s3.tls must be jdk or boringssl, got 'foo'");
            assertFalse(Files.exists(tmp.resolve("s")), r.all());
        } finally {
            if (old == null) {
                System.clearProperty("jpbs.s3.tls");
            } else {
                System.setProperty("jpbs.s3.tls", old);
            }
        }
    }

    @Test
    void portInUseNamesAddressAndPort() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = taken.getLocalPort();
            CliRunner.Result r = serve("--bind", "127.0.0.1", "--port", Integer.toString(port),
                    "--datastore", "store1=" + tmp.resolve("s"));
            oneLine(r, 1, "cannot listen on 127.0.0.1:" + port, "already in use");
        }
    }

    @Test
    void closingWithOpenSessionsIsQuiet() throws Exception {
        NetTestServer server = NetTestServer.startWithToken(tmp);
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream old = System.err;
        // a backup session left open while the server stops: its cleanup must find the executors running
        try (PbsClient c = new PbsClient(server.repository(), server.credentials())) {
            var session = c.startBackup(BackupSnapshotRef.parse(org.jpbs.core.api.BackupNamespace.ROOT,
                    "vm/100/" + BackupSnapshotRef.formatTime(1_700_000_000L)));
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            server.close();
            server.close(); // idempotent
            session.close();
        } catch (IOException expected) {
            // the connection was closed by the server: that is fine
        } finally {
            System.setErr(old);
        }
        String err = captured.toString(StandardCharsets.UTF_8);
        assertFalse(err.contains("RejectedExecutionException"), err);
        assertFalse(err.contains("\tat "), err);
    }
    @Test
    void datastoreUnderAFileNamesTheDatastore() throws IOException {
        Path file = Files.writeString(tmp.resolve("file"), "x");
        CliRunner.Result r = serve("--datastore", "store1=" + file.resolve("sub"));
        assertEquals(1, r.exit(), r.all());
        assertEquals(1, r.err().lines().count(), r.all());
        assertTrue(r.err().contains("jpbs: error: datastore 'store1': cannot create " + file.resolve("sub") + ": "
                + file + " is not a directory"), r.all());
        assertFalse(Files.exists(tmp.resolve("config")), r.all());
    }

    @Test
    void datastoreOptionShadowedByTheConfigIsNeitherCreatedNorServed() throws IOException {
        Path config = Files.createDirectories(tmp.resolve("config"));
        Path inCfg = tmp.resolve("incfg");
        Files.writeString(config.resolve("datastore.cfg"), "datastore: store1\n\tpath " + inCfg + "\n");
        Path other = tmp.resolve("other");
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            CliRunner.Result r = serve("--bind", "127.0.0.1", "--port", Integer.toString(taken.getLocalPort()),
                    "--datastore", "store1=" + other);
            assertEquals(1, r.exit(), r.all());
            assertTrue(r.err().contains("jpbs serve: warning: --datastore store1=" + other
                    + " is ignored: datastore.cfg defines 'store1' at " + inCfg), r.all());
            assertTrue(r.err().contains("cannot listen on 127.0.0.1:"), r.all());
            assertTrue(r.err().contains("jpbs serve: warning: datastore 'store1' of datastore.cfg: " + inCfg
                    + " is not a datastore (no .chunks directory); requests to it will fail"), r.all());
        }
        assertFalse(Files.exists(other));
    }
}
