package org.jpbs.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.auth.AuthConfig;
import org.jpbs.testkit.DatastorePool;

/**
 * A real {@code jpbs serve} in a child JVM (the test class path, {@link Main}) on 127.0.0.1 and
 * an ephemeral port, with file-based users: the token {@value #TOKEN_ID} has DatastoreAdmin on
 * {@code /datastore}. {@link #kill()} ends it with SIGKILL (no shutdown hook runs, as in a crash);
 * {@link #start()} starts it again on the same config directory (same certificate and
 * datastores, a new port).
 */
final class ServeProcess implements AutoCloseable {
    static final String TOKEN_ID = "root@pam!net";
    private static final Pattern LISTENING = Pattern.compile("jpbs serve: listening on \\S*:(\\d+) ");
    private static final Pattern FINGERPRINT = Pattern.compile("jpbs serve: certificate fingerprint (\\S+)");

    final Path config;
    final String tokenSecret;
    private final Path home;
    private final Map<String, Path> stores;
    private final StringBuffer output = new StringBuffer();
    private Process process;
    private volatile int port;
    private volatile String fingerprint;

    private ServeProcess(Path dir, Map<String, Path> stores, String tokenSecret) {
        this.config = dir.resolve("config");
        this.home = dir.resolve("home");
        this.stores = stores;
        this.tokenSecret = tokenSecret;
    }

    /** Creates the datastores (if missing) and the users, then starts the server. */
    static ServeProcess start(Path dir, Map<String, Path> stores) throws IOException, InterruptedException {
        for (Path p : stores.values()) {
            if (!Files.isDirectory(p.resolve(".chunks"))) {
                DatastorePool.create(p, SyncLevel.NONE);
            }
        }
        Files.createDirectories(dir.resolve("config"));
        AuthConfig cfg = AuthConfig.open(dir.resolve("config"));
        cfg.setPassword("root@pam", "root-password-1");
        String secret = cfg.createToken("root@pam", "net", null);
        cfg.updateAcl("/datastore", TOKEN_ID, "DatastoreAdmin", true, false);
        ServeProcess s = new ServeProcess(dir, stores, secret);
        s.start();
        return s;
    }

    /** A JVM running {@code jpbs ARGS} with the test class path (HOME and {@code env} set). */
    static ProcessBuilder jpbs(Path home, Map<String, String> env, String... args) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx512m", "--enable-native-access=ALL-UNNAMED", "-cp", cp,
                Main.class.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        pb.environment().put("HOME", home.toString());
        return pb;
    }

    /** Starts the server process and waits (up to 120 s) until it listens. */
    void start() throws IOException, InterruptedException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("already running");
        }
        List<String> args = new ArrayList<>(List.of("serve", "--config-dir", config.toString(), "--bind", "127.0.0.1",
                "--port", "0"));
        stores.forEach((name, path) -> args.addAll(List.of("--datastore", name + "=" + path)));
        output.setLength(0);
        port = 0;
        fingerprint = null;
        Process p = jpbs(home, Map.of("TZ", "UTC"), args.toArray(String[]::new)).start();
        process = p;
        CountDownLatch up = new CountDownLatch(1);
        Thread.ofPlatform().daemon().name("serve-output").start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    output.append(line).append('\n');
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        port = Integer.parseInt(m.group(1));
                    }
                    m = FINGERPRINT.matcher(line);
                    if (m.find()) {
                        fingerprint = m.group(1);
                        up.countDown();
                    }
                }
            } catch (IOException e) {
                // the process ended
            } finally {
                up.countDown();
            }
        });
        if (!up.await(120, TimeUnit.SECONDS) || port == 0 || fingerprint == null) {
            kill();
            throw new IOException("jpbs serve did not start:\n" + output);
        }
    }

    int port() {
        return port;
    }

    String fingerprint() {
        return fingerprint;
    }

    boolean alive() {
        return process != null && process.isAlive();
    }

    /** What the server printed so far. */
    String output() {
        return output.toString();
    }

    /** SIGKILL, then waits until the process is gone. */
    void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("jpbs serve (pid " + process.pid() + ") did not die");
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
