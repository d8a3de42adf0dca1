package org.jpbs.cli.soak;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A seeded soak of one datastore shared by many processes (issue 12): loops of local backups
 * ({@code jpbs backup} processes), backups through a {@code jpbs serve} process on loopback,
 * garbage collection with a zero cutoff ({@code jpbs gc --gc-atime-cutoff 0}), prune and verify,
 * all at once, while a killer sends SIGKILL to a random running process (the server too, which
 * is then restarted) at random moments. Every choice (image contents, which process to kill,
 * when) comes from the seed; the interleaving of the processes is the operating system's.
 *
 * <p>Images are made of 4 MiB chunks, each one of five variants, so chunks orphaned by a prune
 * come back in later backups (the GC race this soak is about). Each process's outcome is
 * classified: ok, killed (by the soak), <b>refused because of GC</b> (a message naming garbage
 * collection and a lock: must never happen), server down (a remote backup while the server was
 * killed), or other error (printed). At the end, without concurrency, one more GC runs and
 * {@code jpbs verify} must pass for every visible snapshot.
 *
 * <p>Usage: {@code Soak DIR SECONDS SEED JAVA CLASSPATH}; exit 0 if the run passed. Used by
 * {@code bench/soak.sh} and, shortened, by {@code SoakTest}.
 */
public final class Soak {
    /** What a loop runs. */
    public enum Kind { LOCAL_BACKUP, SERVER_BACKUP, GC, PRUNE, VERIFY }

    /** Outcome of one process. */
    public enum Outcome { OK, KILLED, REFUSED_BY_GC, SERVER_DOWN, OTHER_ERROR }

    private static final int CHUNK = 4 << 20;
    /** {@code GarbageCollector.WRITER_MARGIN_PROPERTY} (not referenced, so this file compiles against the jar alone). */
    private static final String WRITER_MARGIN_PROPERTY = "jpbs.gc.writerMarginSeconds";
    private static final Pattern REMOVED = Pattern.compile("Removed chunks: (\\d+)");
    private static final Pattern LISTENING = Pattern.compile(
            "listening on /127\\.0\\.0\\.1:(\\d+), certificate fingerprint ([0-9a-f:]+)");

    private final Path dir;
    private final Duration duration;
    private final Duration maxDuration;
    private final int killPauseMillis;
    private final boolean spareFirst;
    private final long seed;
    private final String java;
    private final String classpath;
    private final Path ds;
    private final Path cfg;
    private final Path logs;
    private final PrintOut out;
    private final AtomicInteger seq = new AtomicInteger();
    private final List<Running> running = new CopyOnWriteArrayList<>();
    private final Map<Kind, int[]> counts = new EnumMap<>(Kind.class);
    private final List<String> errors = new CopyOnWriteArrayList<>();
    private final AtomicInteger backupsDuringGc = new AtomicInteger();
    private final AtomicInteger gcsRunning = new AtomicInteger();
    private final AtomicInteger removedChunks = new AtomicInteger();
    private volatile long deadline;
    private volatile long maxDeadline;
    private volatile Server server;
    private volatile int serverGeneration;
    private volatile boolean serverDown;
    private String secret;
    private int serverKills;

    /** Where the report goes. */
    public interface PrintOut {
        void println(String line);
    }

    /** One running child process. */
    private record Running(Kind kind, Process process, boolean[] killed) {}

    private record Server(Process process, int port, String fingerprint) {}

    /** The result of a run. */
    public record Result(boolean passed, Map<Kind, int[]> counts, int backupsDuringGc, List<String> errors,
                         String finalVerify, int visibleSnapshots, String table) {
        /** Sum of one outcome over all kinds. */
        public int total(Outcome o) {
            return counts.values().stream().mapToInt(a -> a[o.ordinal()]).sum();
        }

        /** Runs of one kind (all outcomes). */
        public int runs(Kind k) {
            int n = 0;
            for (int v : counts.get(k)) {
                n += v;
            }
            return n;
        }
    }

    /** A soak of exactly {@code duration}, a kill every 2.5 to 7.5 s. */
    public Soak(Path dir, Duration duration, long seed, String java, String classpath, PrintOut out) {
        this(dir, duration, duration, 2500, false, seed, java, classpath, out);
    }

    /**
     * A soak that runs at least {@code duration} and, until {@code maxDuration}, longer while
     * no local backup, server backup or GC has succeeded yet (a slow, loaded machine); a kill
     * every {@code killPauseMillis} to 3 times that; with {@code spareFirst} a kind of process is
     * only killed once one of its kind has succeeded (so a short run on a slow machine makes
     * progress).
     */
    public Soak(Path dir, Duration duration, Duration maxDuration, int killPauseMillis, boolean spareFirst, long seed,
                String java, String classpath, PrintOut out) {
        this.spareFirst = spareFirst;
        this.dir = dir;
        this.duration = duration;
        this.maxDuration = maxDuration;
        this.killPauseMillis = killPauseMillis;
        this.seed = seed;
        this.java = java;
        this.classpath = classpath;
        this.out = out;
        this.ds = dir.resolve("ds");
        this.cfg = dir.resolve("config");
        this.logs = dir.resolve("logs");
        for (Kind k : Kind.values()) {
            counts.put(k, new int[Outcome.values().length]);
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: Soak DIR SECONDS SEED JAVA CLASSPATH");
            System.exit(2);
        }
        Soak s = new Soak(Path.of(args[0]), Duration.ofSeconds(Long.parseLong(args[1])), Long.parseLong(args[2]),
                args[3], args[4], System.out::println);
        Result r = s.run();
        System.exit(r.passed() ? 0 : 1);
    }

    // ---- processes ------------------------------------------------------------------------

    private ProcessBuilder jpbs(List<String> args, Map<String, String> env, Path log) {
        List<String> cmd = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m",
                // PBS's 5-minute margin below the oldest running backup would keep every chunk of a
                // run this short; 2 s (above the 1 s clock slack) lets GC sweep while backups run
                "-D" + WRITER_MARGIN_PROPERTY + "=2",
                "-cp", classpath, "org.jpbs.cli.Main"));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("HOME", dir.resolve("home").toString());
        pb.environment().remove("PBS_REPOSITORY");
        pb.environment().remove("PBS_PASSWORD");
        pb.environment().remove("PBS_FINGERPRINT");
        pb.environment().putAll(env);
        pb.redirectErrorStream(true).redirectOutput(log.toFile());
        return pb;
    }

    /**
     * Runs one jpbs command in this JVM (setup and the final checks, with nothing else running:
     * saves JVM starts), its output in {@code log}.
     *
     * @return the output; throws if {@code mustSucceed} and the exit status is not 0
     */
    private String runHere(Path log, boolean mustSucceed, String... args) throws IOException {
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        java.io.PrintStream ps = new java.io.PrintStream(buf, true, StandardCharsets.UTF_8);
        int code = org.jpbs.cli.Main.run(new org.jpbs.cli.CliContext(ps, ps, ps, Map.of(), dir.resolve("home"), false),
                args);
        String text = buf.toString(StandardCharsets.UTF_8);
        Files.writeString(log, text + "exit " + code + "\n");
        if (mustSucceed && code != 0) {
            throw new IOException("jpbs " + String.join(" ", args) + " failed (exit " + code + "): " + text);
        }
        lastExit = code;
        return text;
    }

    private int lastExit;

    private Outcome runKillable(Kind kind, List<String> args, Map<String, String> env) throws IOException,
            InterruptedException {
        Path log = logs.resolve(String.format("%05d-%s.log", seq.incrementAndGet(), kind.name().toLowerCase(Locale.ROOT)));
        int gen = serverGeneration;
        boolean gcRunning = gcsRunning.get() > 0;
        if (kind == Kind.GC) {
            gcsRunning.incrementAndGet();
        }
        Process p;
        boolean[] killed = {false};
        try {
            p = jpbs(args, env, log).start();
            Running r = new Running(kind, p, killed);
            running.add(r);
            try {
                p.waitFor();
            } finally {
                running.remove(r);
            }
        } finally {
            if (kind == Kind.GC) {
                gcsRunning.decrementAndGet();
            }
        }
        String text = Files.readString(log);
        Outcome o = classify(kind, p.exitValue(), killed[0], text, gen);
        Matcher rm = REMOVED.matcher(text);
        if (kind == Kind.GC && rm.find()) {
            removedChunks.addAndGet(Integer.parseInt(rm.group(1)));
        }
        if (o == Outcome.OK && gcRunning && (kind == Kind.LOCAL_BACKUP || kind == Kind.SERVER_BACKUP)) {
            backupsDuringGc.incrementAndGet();
        }
        synchronized (counts) {
            counts.get(kind)[o.ordinal()]++;
        }
        if (o == Outcome.REFUSED_BY_GC || o == Outcome.OTHER_ERROR) {
            String first = text.lines().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse("(no output)");
            errors.add(kind + " " + log.getFileName() + " exit " + p.exitValue() + ": " + first);
        }
        return o;
    }

    private Outcome classify(Kind kind, int exit, boolean killed, String text, int gen) {
        if (killed) {
            return Outcome.KILLED;
        }
        String lower = text.toLowerCase(Locale.ROOT);
        if (exit != 0 && lower.contains("garbage collection") && lower.contains("lock")
                && kind != Kind.GC) {
            return Outcome.REFUSED_BY_GC;
        }
        if (exit == 0) {
            return Outcome.OK;
        }
        if (kind == Kind.SERVER_BACKUP && (gen != serverGeneration || serverDown)) {
            return Outcome.SERVER_DOWN;
        }
        if (kind == Kind.PRUNE && (lower.contains("is locked by another operation") || lower.contains("has no snapshots"))) {
            return Outcome.OK; // prune keeps a snapshot in use and says so (exit 1), as PBS; or nothing to prune yet
        }
        return Outcome.OTHER_ERROR;
    }

    // ---- server ---------------------------------------------------------------------------

    private void startServer() throws IOException, InterruptedException {
        Path log = logs.resolve("serve-" + (serverGeneration + 1) + ".log");
        Process p = jpbs(List.of("serve", "--datastore", "store1=" + ds, "--bind", "127.0.0.1", "--port", "0",
                "--config-dir", cfg.toString()), Map.of(), log).start();
        for (int i = 0; i < 1200; i++) {
            Matcher m = LISTENING.matcher(Files.readString(log));
            if (m.find()) {
                server = new Server(p, Integer.parseInt(m.group(1)), m.group(2));
                serverGeneration++;
                serverDown = false;
                return;
            }
            if (!p.isAlive()) {
                break;
            }
            Thread.sleep(50); // waiting for a process to start, not a timed assertion
        }
        p.destroyForcibly();
        throw new IOException("jpbs serve did not start: " + Files.readString(log));
    }

    private Map<String, String> serverEnv() {
        Server s = server;
        return Map.of("PBS_REPOSITORY", "root@pam!soak@127.0.0.1:" + s.port() + ":store1", "PBS_PASSWORD", secret,
                "PBS_FINGERPRINT", s.fingerprint());
    }

    // ---- loops ----------------------------------------------------------------------------

    /** Writes an image of {@code n} chunks, each one of five seeded variants, plus a short tail. */
    private static void writeImage(Path file, Random rnd, int n) throws IOException {
        try (OutputStream o = Files.newOutputStream(file)) {
            byte[] buf = new byte[CHUNK];
            for (int i = 0; i < n; i++) {
                new Random(i * 31L + rnd.nextInt(5)).nextBytes(buf);
                o.write(buf);
            }
            o.write(("tail " + rnd.nextInt(3)).getBytes(StandardCharsets.US_ASCII));
        }
    }

    private void loop(Kind kind, int index, Random rnd) {
        try {
            Path img = dir.resolve("img-" + kind.name().toLowerCase(Locale.ROOT) + "-" + index + ".img");
            String[] groups = {"host/local-0", "host/local-1", "host/remote-0"};
            int g = 0;
            while (going()) {
                switch (kind) {
                    case LOCAL_BACKUP -> {
                        writeImage(img, rnd, 3);
                        runKillable(kind, List.of("backup", "-q", "--repository", ds.toString(), "--backup-type", "host",
                                "--backup-id", "local-" + index, "disk.img:" + img), Map.of());
                    }
                    case SERVER_BACKUP -> {
                        writeImage(img, rnd, 3);
                        runKillable(kind, List.of("backup", "-q", "--backup-type", "host", "--backup-id",
                                "remote-" + index, "disk.img:" + img), serverEnv());
                    }
                    case GC -> runKillable(kind, List.of("gc", "--repository", ds.toString(), "--gc-atime-cutoff", "0"),
                            Map.of());
                    case PRUNE -> runKillable(kind, List.of("prune", groups[g++ % groups.length], "--keep-last",
                            Integer.toString(1 + rnd.nextInt(2)), "--repository", ds.toString()), Map.of());
                    case VERIFY -> runKillable(kind, List.of("verify", "--repository", ds.toString()), Map.of());
                }
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            errors.add(kind + " loop failed: " + e);
        }
    }

    private void killer(Random rnd) {
        try {
            while (going()) {
                Thread.sleep(killPauseMillis + rnd.nextInt(2 * killPauseMillis)); // seeded pauses between kills
                if (!going()) {
                    break;
                }
                if (rnd.nextInt(20) == 0) {
                    Server s = server;
                    serverDown = true;
                    s.process().destroyForcibly();
                    s.process().waitFor();
                    serverKills++;
                    startServer();
                    continue;
                }
                List<Running> now = new ArrayList<>(running);
                if (spareFirst) {
                    synchronized (counts) {
                        now.removeIf(r -> counts.get(r.kind())[Outcome.OK.ordinal()] == 0);
                    }
                }
                if (now.isEmpty()) {
                    continue;
                }
                Running victim = now.get(rnd.nextInt(now.size()));
                victim.killed()[0] = true;
                victim.process().destroyForcibly(); // SIGKILL
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            errors.add("killer failed: " + e);
        }
    }

    /** True while the loops go on: before the deadline, or (up to the maximum) until each main kind succeeded once. */
    private boolean going() {
        long now = System.nanoTime();
        if (now < deadline) {
            return true;
        }
        if (now >= maxDeadline) {
            return false;
        }
        synchronized (counts) {
            return counts.get(Kind.LOCAL_BACKUP)[0] == 0 || counts.get(Kind.SERVER_BACKUP)[0] == 0
                    || counts.get(Kind.GC)[0] == 0;
        }
    }

    // ---- the run --------------------------------------------------------------------------

    /** Runs the soak; prints the table and returns the result. */
    public Result run() throws Exception {
        Files.createDirectories(logs);
        Files.createDirectories(dir.resolve("home"));
        String json = runHere(logs.resolve("setup-2.log"), true, "user", "token", "create", "root@pam", "soak",
                "--config-dir", cfg.toString(), "--output-format", "json");
        Matcher m = Pattern.compile("\"value\"\\s*:\\s*\"([^\"]+)\"").matcher(json);
        if (!m.find()) {
            throw new IOException("no token secret in: " + json);
        }
        secret = m.group(1);
        runHere(logs.resolve("setup-3.log"), true, "acl", "update", "/datastore", "DatastoreAdmin", "--auth-id", "root@pam!soak",
                "--config-dir", cfg.toString());
        long t0 = System.nanoTime();
        startServer(); // creates the datastore
        long tLoops = System.nanoTime();

        deadline = System.nanoTime() + duration.toNanos();
        maxDeadline = System.nanoTime() + maxDuration.toNanos();
        List<Thread> threads = new ArrayList<>();
        Kind[] loops = {Kind.LOCAL_BACKUP, Kind.LOCAL_BACKUP, Kind.SERVER_BACKUP, Kind.GC, Kind.PRUNE, Kind.VERIFY};
        int[] index = new int[Kind.values().length];
        for (int i = 0; i < loops.length; i++) {
            Kind k = loops[i];
            int idx = index[k.ordinal()]++;
            Random rnd = new Random(seed * 1_000_003L + i);
            threads.add(Thread.ofPlatform().name("soak-" + k + "-" + idx).start(() -> loop(k, idx, rnd)));
        }
        Random killRnd = new Random(seed);
        threads.add(Thread.ofPlatform().name("soak-killer").start(() -> killer(killRnd)));
        while (going()) {
            Thread.sleep(100);
        }
        // time is up: what still runs is killed too (bounds the run), then the loops end
        for (Thread t : threads) {
            while (t.isAlive()) {
                for (Running r : running) {
                    r.killed()[0] = true;
                    r.process().destroyForcibly();
                }
                t.join(100);
            }
        }
        server.process().destroyForcibly();
        server.process().waitFor(60, TimeUnit.SECONDS);
        long tFinal = System.nanoTime();

        // without concurrency: GC with a zero cutoff, then every visible snapshot must verify
        runHere(logs.resolve("final-gc.log"), true, "gc", "--repository", ds.toString(), "--gc-atime-cutoff", "0");
        String verify = runHere(logs.resolve("final-verify.log"), false, "verify", "--repository", ds.toString());
        Matcher vm = Pattern.compile("verified (\\d+) snapshot\\(s\\): (\\d+) ok, (\\d+) failed").matcher(verify);
        int snapshots = vm.find() ? Integer.parseInt(vm.group(1)) : -1;
        boolean allOk = snapshots >= 0 && vm.group(3).equals("0") && vm.group(2).equals(vm.group(1));
        boolean verifyOk = lastExit == 0 && allOk;
        long tEnd = System.nanoTime();

        StringBuilder table = new StringBuilder();
        table.append(String.format("%-14s %6s %6s %7s %14s %12s %12s%n", "process", "runs", "ok", "killed",
                "refused-by-GC", "server-down", "other-error"));
        for (Kind k : Kind.values()) {
            int[] c = counts.get(k);
            int runs = 0;
            for (int x : c) {
                runs += x;
            }
            table.append(String.format("%-14s %6d %6d %7d %14d %12d %12d%n", k.name().toLowerCase(Locale.ROOT), runs,
                    c[0], c[1], c[2], c[3], c[4]));
        }
        table.append(String.format("server kills: %d; chunks removed by GCs during the run: %d; backups that succeeded while"
                + " a GC ran: %d; final GC and verify: %s (%d snapshots)%n", serverKills, removedChunks.get(),
                backupsDuringGc.get(), verifyOk ? "ok" : "FAILED", snapshots));
        Result r0 = new Result(false, counts, backupsDuringGc.get(), List.copyOf(errors), verify, snapshots, "");
        boolean passed = verifyOk && r0.total(Outcome.REFUSED_BY_GC) == 0 && r0.total(Outcome.OTHER_ERROR) == 0
                && errors.isEmpty();
        out.println(String.format("soak: seed %d, datastore %s; server start %.1f s, loops %.1f s, final GC and verify %.1f s",
                seed, ds, (tLoops - t0) / 1e9, (tFinal - tLoops) / 1e9, (tEnd - tFinal) / 1e9));
        for (String line : table.toString().split("\n")) {
            out.println(line);
        }
        for (String e : errors) {
            out.println("error: " + e);
        }
        if (!verifyOk) {
            out.println("final verify:\n" + verify);
        }
        out.println(passed ? "soak PASSED" : "soak FAILED");
        return new Result(passed, counts, backupsDuringGc.get(), List.copyOf(errors), verify, snapshots, table.toString());
    }
}
