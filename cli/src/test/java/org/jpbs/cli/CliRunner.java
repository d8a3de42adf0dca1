package org.jpbs.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.SnapshotInfo;

/** Test helper: runs the command line in-process with captured streams and a fake environment. */
final class CliRunner {
    /** Result of one run; {@code raw} is everything written to standard output (text and binary). */
    record Result(int exit, String out, String err, byte[] raw) {
        String all() {
            return "exit " + exit + "\n--- out:\n" + out + "\n--- err:\n" + err;
        }
    }

    private final Path home;
    private final Map<String, String> env;

    CliRunner(Path home, Map<String, String> env) {
        this.home = home;
        this.env = env;
    }

    Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            int code = Main.run(new CliContext(o, e, o, env, home, false), args);
            return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8),
                    out.toByteArray());
        }
    }

    /** Every snapshot of the datastore (all namespaces), as {@code ns|type/id/time|finished}. */
    static List<String> snapshots(Path repo) throws IOException {
        List<String> out = new ArrayList<>();
        Datastore ds = Datastore.open(repo);
        for (BackupNamespace ns : ds.listNamespaces()) {
            for (BackupGroupRef g : ds.listGroups(ns)) {
                for (SnapshotInfo s : ds.listSnapshots(g)) {
                    out.add(ns + "|" + s.ref() + "|" + s.finished());
                }
            }
        }
        return out;
    }

    /** Names starting with {@code .tmp} anywhere in the datastore except {@code .chunks}. */
    static List<Path> tempEntries(Path repo) throws IOException {
        List<Path> found = new ArrayList<>();
        Files.walkFileTree(repo, new java.nio.file.SimpleFileVisitor<>() {
            @Override
            public java.nio.file.FileVisitResult preVisitDirectory(Path dir, java.nio.file.attribute.BasicFileAttributes a) {
                if (dir.getFileName().toString().equals(".chunks")) {
                    return java.nio.file.FileVisitResult.SKIP_SUBTREE;
                }
                if (dir.getFileName().toString().startsWith(".tmp")) {
                    found.add(dir);
                }
                return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes a) {
                if (file.getFileName().toString().startsWith(".tmp")) {
                    found.add(file);
                }
                return java.nio.file.FileVisitResult.CONTINUE;
            }
        });
        return found;
    }

    /** Number of chunk files in the datastore. */
    static long chunkCount(Path repo) throws IOException {
        try (Stream<Path> s = Files.walk(repo.resolve(".chunks"))) {
            return s.filter(Files::isRegularFile).count();
        }
    }
}
