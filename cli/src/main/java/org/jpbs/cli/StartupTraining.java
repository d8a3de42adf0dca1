package org.jpbs.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * The training run for the JVM's ahead-of-time cache (JDK 25, JEP 483/514/515): {@code ./jpbs}
 * runs this class once after each build with {@code -XX:AOTCacheOutput}, and later commands start
 * with {@code -XX:AOTCache}, which saves about 0.4 s of class loading and linking per command.
 *
 * <p>It runs the main job in one JVM on generated data under the given scratch directory (deleted
 * afterwards): datastore create, backup of a 12 MiB image (text-like, zero and random chunks),
 * an incremental backup, snapshot list/files, restore and sparse restore, an encrypted backup and
 * restore with a new key, file archives, and the same through a {@code jpbs serve} server on
 * loopback in this JVM; the S3 client's requests to a closed port. Output is discarded.
 * Not a user command; exit code 0 when every local step succeeded, else 1.
 */
public final class StartupTraining {
    private StartupTraining() {}

    /** {@code args[0]}: a scratch directory that may not exist yet. */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: StartupTraining SCRATCH_DIR");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        Outcome o;
        try {
            o = train(dir);
        } finally {
            deleteTree(dir);
        }
        if (o.bestEffort() > 0) {
            System.err.println("jpbs training: " + o.bestEffort() + " network or S3 steps failed (the cache is made anyway)");
        }
        System.exit(o.required() == 0 ? 0 : 1);
    }

    /**
     * Failed steps: {@code required} of the local ones (the launcher makes no cache then),
     * {@code bestEffort} of the network and S3 rounds (loopback servers; the cache is made anyway).
     */
    record Outcome(int required, int bestEffort) {}

    /** Runs every training step under {@code dir} (created; left for the caller to delete). */
    static Outcome train(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path image = dir.resolve("disk.img");
        Files.write(image, image(12 << 20));
        String ds = dir.resolve("ds").toString();
        String key = dir.resolve("key.json").toString();
        ByteArrayOutputStream sinkBytes = new ByteArrayOutputStream();
        // -Djpbs.training.verbose=true shows the steps' output (for finding a step that fails)
        PrintStream sink = Boolean.getBoolean("jpbs.training.verbose") ? System.err
                : new PrintStream(sinkBytes, true, StandardCharsets.UTF_8);
        CliContext ctx = new CliContext(sink, sink, sink, Map.of(), dir, false);
        String[][] steps = {
            {"datastore", "create", ds},
            {"backup", "--repository", ds, "--backup-type", "vm", "--backup-id", "1", "--backup-time", "1000",
                "drive-scsi0.img:" + image, "qemu-server.conf:" + image},
            {"backup", "--repository", ds, "--backup-type", "vm", "--backup-id", "1", "--backup-time", "2000",
                "drive-scsi0.img:" + image},
            {"snapshot", "list", "--repository", ds},
            {"snapshot", "files", "--repository", ds, "vm/1/1970-01-01T00:33:20Z"},
            {"restore", "--repository", ds, "vm/1", "drive-scsi0.img", dir.resolve("r1.img").toString()},
            {"restore", "--repository", ds, "--sparse", "vm/1", "drive-scsi0.img", dir.resolve("r2.img").toString()},
            // encrypted paths too, so AES-GCM and the keyed digests start with profiles (JEP 515)
            {"key", "create", "--kdf", "none", key},
            {"backup", "--repository", ds, "--keyfile", key, "--backup-type", "vm", "--backup-id", "2",
                "--backup-time", "1000", "drive-scsi0.img:" + image, "qemu-server.conf:" + image},
            {"restore", "--repository", ds, "--keyfile", key, "vm/2", "drive-scsi0.img", dir.resolve("r3.img").toString()},
            {"backup", "--repository", ds, "/no/such/archive"},
        };
        int failures = 0;
        for (int i = 0; i < steps.length; i++) {
            int rc = Main.run(ctx, steps[i]);
            boolean expectFailure = i == steps.length - 1;
            if ((rc == 0) == expectFailure) {
                failures++;
            }
        }
        int extra;
        try {
            extra = trainNetwork(dir, image, sink);
        } catch (IOException | RuntimeException e) {
            extra = 1;
        }
        trainS3Client();
        return new Outcome(failures, extra);
    }

    /**
     * The network paths: a {@code jpbs serve} server in this JVM (loopback, an API token made with
     * {@code jpbs user token create}), then an image backup, an incremental one, a file-archive
     * backup, snapshot list and restores through it with the real TLS and HTTP/2 code. A command over
     * the network loads Netty, the TLS engine and the protocol classes, and its event loop and
     * upload/download code then start with profiles (about 0.5–0.8 CPU s per command otherwise).
     */
    private static int trainNetwork(Path dir, Path image, PrintStream sink)
            throws IOException {
        Path cfgDir = dir.resolve("serve-config");
        Path served = dir.resolve("ds"); // the local steps' datastore: no second 65,536 directories to make
        Path tree = dir.resolve("tree");
        makeTree(tree);
        CliContext local = new CliContext(sink, sink, sink, Map.of(), dir, false);
        ByteArrayOutputStream tokenJson = new ByteArrayOutputStream();
        PrintStream tokenOut = new PrintStream(tokenJson, true, StandardCharsets.UTF_8);
        if (Main.run(new CliContext(tokenOut, sink, tokenOut, Map.of(), dir, false), new String[] {"user", "token", "create", "root@pam", "train", "--config-dir", cfgDir.toString(),
            "--output-format", "json"}) != 0) {
            return 1;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"value\"\\s*:\\s*\"([^\"]+)\"")
                .matcher(tokenJson.toString(StandardCharsets.UTF_8));
        if (!m.find() || Main.run(local, new String[] {"acl", "update", "/datastore", "DatastoreAdmin", "--auth-id",
            "root@pam!train", "--config-dir", cfgDir.toString()}) != 0) {
            return 1;
        }
        String secret = m.group(1);
        org.jpbs.server.ServerConfig cfg = new org.jpbs.server.ServerConfig(cfgDir, Map.of("store1", served),
                "127.0.0.1", 0);
        org.jpbs.server.auth.FileAuthenticator auth = org.jpbs.server.auth.FileAuthenticator.open(cfgDir);
        int failures = 0;
        try (org.jpbs.server.JpbsServer server = org.jpbs.server.JpbsServer.start(cfg, auth,
                org.jpbs.server.api.JpbsRestHandler.create(cfg, auth))) {
            CliContext ctx = new CliContext(sink, sink, sink, Map.of("PBS_PASSWORD", secret, "PBS_FINGERPRINT",
                    server.fingerprint()), dir, false);
            String repo = "root@pam!train@127.0.0.1:" + server.port() + ":store1";
            String[][] steps = {
                {"backup", "--repository", repo, "--backup-type", "vm", "--backup-id", "3", "--backup-time", "1000",
                    "drive-scsi0.img:" + image, "qemu-server.conf:" + image},
                {"backup", "--repository", repo, "--backup-type", "vm", "--backup-id", "3", "--backup-time", "2000",
                    "drive-scsi0.img:" + image},
                {"backup", "--repository", repo, "--backup-type", "host", "--backup-id", "t", "--backup-time", "1000",
                    "root.pxar:" + tree},
                {"snapshot", "list", "--repository", repo},
                {"restore", "--repository", repo, "vm/3", "drive-scsi0.img", dir.resolve("n1.img").toString()},
                {"restore", "--repository", repo, "host/t", "root.pxar", dir.resolve("n-tree").toString()},
            };
            for (String[] step : steps) {
                if (Main.run(ctx, step) != 0) {
                    failures++;
                }
            }
        }
        // a file archive into the local datastore: the local pxar paths
        String ds = served.toString();
        if (Main.run(local, new String[] {"backup", "--repository", ds, "--backup-type", "host", "--backup-id", "u",
            "--backup-time", "1000", "root.pxar:" + tree}) != 0
                || Main.run(local, new String[] {"restore", "--repository", ds, "host/u", "root.pxar",
                    dir.resolve("l-tree").toString()}) != 0) {
            failures++;
        }
        return failures;
    }

    /** A small directory tree: text-like and random files, a subdirectory, a symlink, a hardlink. */
    private static void makeTree(Path tree) throws IOException {
        Path sub = Files.createDirectories(tree.resolve("sub/deeper"));
        byte[] data = image(9 << 20);
        for (int i = 0; i < 40; i++) {
            int from = (i * 211_000) % (data.length - 300_000);
            Files.write((i % 2 == 0 ? tree : sub).resolve("f" + i), java.util.Arrays.copyOfRange(data, from, from + 1000 + i * 7000));
        }
        Files.write(sub.resolve("large"), java.util.Arrays.copyOfRange(data, 0, 6 << 20));
        Files.createSymbolicLink(tree.resolve("link"), Path.of("sub/large"));
        Files.createLink(tree.resolve("hard"), tree.resolve("f0"));
    }

    /**
     * Builds the S3 client of an S3 datastore (docs/s3.md#the-client) and sends a stat, a download
     * and an upload to a local port nobody listens on (each fails at once, without retries): the
     * AWS SDK's classes, about a second of class loading and linking, then come from the cache.
     */
    private static void trainS3Client() {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        } catch (IOException e) {
            return;
        }
        org.jpbs.s3.config.S3EndpointConfig ep = new org.jpbs.s3.config.S3EndpointConfig("training", "127.0.0.1", port,
                "us-east-1", null, "training", "training-secret", true, null, null, null, null, null,
                java.util.Set.of());
        try (org.jpbs.s3.client.S3ObjectStore o = org.jpbs.s3.client.S3Connector.open(ep, "training", "store",
                org.jpbs.s3.client.S3Options.defaults().withAttempts(1, java.time.Duration.ofSeconds(2)))) {
            for (int i = 0; i < 3; i++) {
                try {
                    switch (i) {
                        case 0 -> o.head(".chunks/0000/x");
                        case 1 -> o.get(".cnt/x");
                        default -> o.put(".chunks/0000/x", new byte[64], true);
                    }
                } catch (IOException | RuntimeException e) {
                    // expected: nothing listens there
                }
            }
        } catch (RuntimeException e) {
            // the training is best effort
        }
    }

    /** 4 MiB of text-like bytes, 4 MiB of zeros, then random bytes (seeded). */
    private static byte[] image(int size) {
        byte[] b = new byte[size];
        SplittableRandom rnd = new SplittableRandom(25);
        byte[] words = "backup chunk digest index datastore snapshot manifest restore ".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 4 << 20; i++) {
            b[i] = words[(i + rnd.nextInt(3)) % words.length];
        }
        for (int i = 8 << 20; i < size; i++) {
            b[i] = (byte) rnd.nextInt(256);
        }
        return b;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
