package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.JpbsServer;
import org.jpbs.server.ServerConfig;
import org.jpbs.server.ServerServices;
import org.jpbs.server.auth.StaticTokenAuthenticator;
import org.jpbs.server.http.DefaultRestHandler;
import org.jpbs.server.http.ServerTimeouts;
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 4 as it was found: a real {@code jpbs backup} process uploading to a server on
 * loopback (through a proxy that forwards 16 MiB/s, so its chunk uploads are in flight most of
 * the time, as on a real network) is frozen with {@code SIGSTOP} in the middle of its upload. The server (idle and
 * stall limits of a few seconds) must end the session and release the group lock and the
 * datastore lock although the client's socket stays open: the next backup of the group
 * succeeds and a GC of another process may run, without the frozen client being killed.
 */
class StoppedClientProcessTest {
    private static final long T1 = 1_700_000_000L;
    private static final long T2 = T1 + 100;
    private static final long T3 = T1 + 200;
    private static final String TOKEN_ID = "root@pam!stall";
    private static final String SECRET = "stall-secret";

    @TempDir(factory = FastTempDirs.class)
    Path tmp;

    private Process client;
    private ThrottlingProxy proxy;

    @AfterEach
    void cleanup() throws Exception {
        if (client != null) {
            client.destroyForcibly();
            signal("CONT", client.pid()); // a stopped process only dies once continued
            client.waitFor(30, TimeUnit.SECONDS);
        }
        if (proxy != null) {
            proxy.close();
        }
        FastTempDirs.deleteTree(tmp);
    }

    private static void signal(String sig, long pid) throws Exception {
        assertEquals(0, new ProcessBuilder("kill", "-" + sig, Long.toString(pid)).inheritIO().start().waitFor());
    }

    private Process jpbs(Map<String, String> env, String... args) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp", cp, Main.class.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        pb.environment().put("HOME", tmp.resolve("home").toString());
        return pb.start();
    }

    /** A local {@code jpbs gc} in another process: its exit code and output. */
    private String gc(Path ds) throws Exception {
        Process p = jpbs(Map.of("PBS_REPOSITORY", ds.toString()), "gc");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        return "exit " + p.exitValue() + ": " + out;
    }

    @Test
    void stoppedClientLosesItsBackupAndLocksWithinTheLimits() throws Exception {
        Path ds = tmp.resolve("ds");
        DatastorePool.create(ds, SyncLevel.NONE);
        ServerConfig config = new ServerConfig(tmp.resolve("config"), Map.of("store1", ds), "127.0.0.1", 0);
        StaticTokenAuthenticator auth = new StaticTokenAuthenticator(Map.of(TOKEN_ID, SECRET));
        ServerTimeouts limits = new ServerTimeouts(Duration.ofSeconds(60), Duration.ofSeconds(6), Duration.ofSeconds(5),
                ServerTimeouts.DEFAULT_TCP_KEEPALIVE);
        Duration limit = Duration.ofSeconds(6);
        try (JpbsServer server = JpbsServer.start(config, auth, new DefaultRestHandler(auth), ServerServices.open(config),
                limits)) {
            Map<String, String> env = Map.of("PBS_REPOSITORY", TOKEN_ID + "@127.0.0.1:" + server.port() + ":store1",
                    "PBS_PASSWORD", SECRET, "PBS_FINGERPRINT", server.fingerprint());
            CliRunner cli = new CliRunner(tmp.resolve("home"), env);
            Path conf = Files.writeString(tmp.resolve("vm.conf"), "memory: 2048\n");
            CliRunner.Result base = cli.run("backup", "-q", "--backup-type", "vm", "--backup-id", "100", "--backup-time",
                    Long.toString(T1), "qemu-server.conf:" + conf);
            assertEquals(0, base.exit(), base.all());

            Path img = tmp.resolve("disk.img"); // 128 MiB of random data: through the proxy an upload of ~8 s
            try (OutputStream out = Files.newOutputStream(img)) {
                Random rnd = new Random(12);
                byte[] b = new byte[1 << 20];
                for (int i = 0; i < 128; i++) {
                    rnd.nextBytes(b);
                    out.write(b);
                }
            }
            // the client talks through a proxy that forwards its bytes at 16 MiB/s, so that (as on a real
            // network) its uploads are in flight most of the time and the stop lands inside one
            proxy = new ThrottlingProxy(server.port(), 16 << 20, Long.MAX_VALUE);
            Map<String, String> viaProxy = new java.util.HashMap<>(env);
            viaProxy.put("PBS_REPOSITORY", TOKEN_ID + "@127.0.0.1:" + proxy.port() + ":store1");
            client = jpbs(viaProxy, "backup", "--backup-type", "vm", "--backup-id", "100", "--backup-time", Long.toString(T2),
                    "disk.img:" + img);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (server.activeSessions() == 0 && client.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            Thread.sleep(1500); // into the upload
            signal("STOP", client.pid());
            long stoppedAt = System.nanoTime();
            assertTrue(client.isAlive(), "the client was still uploading when it was stopped");
            assertEquals(1, server.activeSessions(), "its session is open");
            CliRunner.Result refused = cli.run("backup", "-q", "--backup-type", "vm", "--backup-id", "100",
                    "--backup-time", Long.toString(T3), "qemu-server.conf:" + conf);
            assertEquals(1, refused.exit(), "the group is locked while the session lives: " + refused.all());

            deadline = stoppedAt + limit.plusSeconds(20).toNanos();
            while (server.activeSessions() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt);
            assertEquals(0, server.activeSessions(), "the stopped client's session still lives after " + ms + " ms");
            System.out.println("session of the stopped client ended " + ms + " ms after SIGSTOP");
            assertTrue(client.isAlive(), "the client was not killed: the server ended the session by itself");

            String gc = gc(ds);
            assertTrue(gc.startsWith("exit 0"), "a GC of another process runs: " + gc);
            CliRunner.Result next = cli.run("backup", "-q", "--backup-type", "vm", "--backup-id", "100", "--backup-time",
                    Long.toString(T3), "qemu-server.conf:" + conf);
            assertEquals(0, next.exit(), "the next backup of the group succeeds: " + next.all());
            Datastore d = Datastore.open(ds);
            var group = new BackupSnapshotRef(new org.jpbs.core.api.BackupGroupRef(org.jpbs.core.api.BackupNamespace.ROOT,
                    org.jpbs.core.api.BackupType.VM, "100"), T1).group();
            assertFalse(Files.exists(d.snapshotDir(new BackupSnapshotRef(group, T2))), "the frozen backup left no snapshot");
            assertEquals(List.of(), CliRunner.tempEntries(ds), "and no hidden directory");
        }
    }
}
