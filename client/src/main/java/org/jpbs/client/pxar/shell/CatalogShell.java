package org.jpbs.client.pxar.shell;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.jpbs.core.pxar.PxarAccessor;
import org.jpbs.core.pxar.ReadAt;
import org.jpbs.core.pxar.catalog.CatalogDump;
import org.jpbs.core.pxar.catalog.CatalogEntry;
import org.jpbs.core.pxar.catalog.CatalogReader;
import org.jpbs.core.pxar.pattern.MatchEntry;

/**
 * The interactive catalog shell of one file archive ({@code docs/pxar.md#catalog-shell}), with
 * the PBS client's commands and output: {@code ls}, {@code cd}, {@code pwd}, {@code find},
 * {@code stat}, {@code select}, {@code deselect}, {@code clear-selected},
 * {@code list-selected}, {@code restore-selected}, {@code restore}, {@code help},
 * {@code exit}. Navigation reads the catalog; {@code stat}, symlinks and restores read the
 * archive by random access, so restoring a file reads its chunks, not the archive. Commands
 * come one per line (words split as a shell does); a failing command prints
 * {@code Error: <reason>} and the shell goes on. Not thread-safe.
 */
public final class CatalogShell {
    private static final String[][] HELP = {
        {"cd [PATH]", "Change the current working directory to the new directory"},
        {"clear-selected", "Clear the list of files selected for restore."},
        {"deselect PATH", "Deselect an entry for restore."},
        {"exit", "Exit the shell"},
        {"find PATTERN [--select]", "Find entries in the catalog matching the given match pattern."},
        {"help", "Show this list."},
        {"list-selected [--patterns]", "List entries currently selected for restore."},
        {"ls [PATH]", "List the content of working directory or given path."},
        {"pwd", "List the current working directory."},
        {"restore TARGET [PATTERN]", "Restore the archive (or what PATTERN matches) to the local path TARGET."},
        {"restore-selected TARGET", "Restore the selected entries to the given target path."},
        {"select PATH", "Select an entry for restore."},
        {"stat PATH", "Read the metadata for a given directory entry."},
    };

    private final CatalogReader catalog;
    private final PxarAccessor archive;
    private final ReadAt payload;
    private final ShellPath paths;
    private final ZoneId zone;
    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, MatchEntry> selected = new LinkedHashMap<>();
    private List<CatalogEntry> position;

    /**
     * A shell on the archive {@code archiveName} ({@code root.pxar.didx}, as named in the
     * catalog's root) of {@code catalog}.
     *
     * @param payload the payload stream of a split archive, or null
     * @throws ShellException if the catalog has no such archive
     */
    public CatalogShell(CatalogReader catalog, String archiveName, PxarAccessor archive, ReadAt payload, ZoneId zone,
            PrintStream out, PrintStream err) throws IOException {
        this.catalog = catalog;
        this.archive = archive;
        this.payload = payload;
        this.paths = new ShellPath(catalog, archive);
        this.zone = zone;
        this.out = out;
        this.err = err;
        CatalogEntry root = null;
        for (CatalogEntry e : catalog.list(catalog.root())) {
            if (e.isDirectory() && e.displayName().equals(archiveName)) {
                root = e;
            }
        }
        if (root == null) {
            throw new ShellException("archive not found in catalog");
        }
        this.position = List.of(root);
    }

    /** Reads and runs commands until {@code exit} or the end of {@code in}; prompts if {@code interactive}. */
    public void run(BufferedReader in, boolean interactive) throws IOException {
        while (true) {
            if (interactive) {
                out.print(prompt());
                out.flush();
            }
            String line = in.readLine();
            if (line == null || line.strip().equals("exit")) {
                return;
            }
            List<String> words;
            try {
                words = ShellWords.split(line);
            } catch (IllegalArgumentException e) {
                err.println("Error: " + e.getMessage());
                continue;
            }
            if (words.isEmpty()) {
                continue;
            }
            try {
                command(words.get(0), words.subList(1, words.size()));
            } catch (IOException | IllegalArgumentException e) {
                err.println("Error: " + e.getMessage());
            }
            out.flush();
        }
    }

    /** {@code pxar:/dir > }. */
    String prompt() {
        if (position.size() <= 1) {
            return "pxar:/ > ";
        }
        StringBuilder sb = new StringBuilder("pxar:");
        for (CatalogEntry e : position.subList(1, position.size())) {
            sb.append('/').append(e.displayName());
        }
        return sb.append(" > ").toString();
    }

    private void command(String cmd, List<String> args) throws IOException {
        List<String> words = new ArrayList<>();
        List<String> flags = new ArrayList<>();
        for (String a : args) {
            (a.startsWith("--") ? flags : words).add(a);
        }
        switch (cmd) {
            case "pwd" -> expect(cmd, words, 0, 0, flags, List.of()).println(CatalogDump.quote(ShellPath.absolute(position)));
            case "cd" -> cd(expect(cmd, words, 0, 1, flags, List.of()), words);
            case "ls" -> ls(expect(cmd, words, 0, 1, flags, List.of()), words);
            case "stat" -> stat(expect(cmd, words, 1, 1, flags, List.of()), words.get(0));
            case "select" -> select(expect(cmd, words, 1, 1, flags, List.of()), words.get(0));
            case "deselect" -> deselect(expect(cmd, words, 1, 1, flags, List.of()), words.get(0));
            case "clear-selected" -> {
                expect(cmd, words, 0, 0, flags, List.of());
                selected.clear();
                out.println("cleared selection");
            }
            case "list-selected" -> listSelected(expect(cmd, words, 0, 0, flags, List.of("--patterns")), flags);
            case "find" -> find(expect(cmd, words, 1, 1, flags, List.of("--select")), words.get(0), flags);
            case "restore-selected" -> {
                expect(cmd, words, 1, 1, flags, List.of());
                if (selected.isEmpty()) {
                    throw new ShellException("no entries selected");
                }
                restore(Path.of(words.get(0)), new ArrayList<>(selected.values()));
            }
            case "restore" -> {
                expect(cmd, words, 1, 2, flags, List.of());
                restore(Path.of(words.get(0)), words.size() > 1 ? List.of(pattern(words.get(1))) : List.of());
            }
            case "help" -> {
                for (String[] h : HELP) {
                    out.printf("%-28s %s%n", h[0], h[1]);
                }
            }
            default -> throw new ShellException("unknown command '" + cmd + "' (try 'help')");
        }
    }

    /** Checks the number of arguments and the flags of a command. */
    private PrintStream expect(String cmd, List<String> words, int min, int max, List<String> flags, List<String> known)
            throws ShellException {
        for (String f : flags) {
            if (!known.contains(f)) {
                throw new ShellException(cmd + ": unknown option '" + f + "'");
            }
        }
        if (words.size() < min || words.size() > max) {
            throw new ShellException(cmd + ": expected " + (min == max ? Integer.toString(min) : min + " to " + max)
                    + " argument(s), got " + words.size() + " (try 'help')");
        }
        return out;
    }

    private void cd(PrintStream o, List<String> words) throws IOException {
        if (words.isEmpty()) {
            position = position.subList(0, 1);
            return;
        }
        List<CatalogEntry> st = paths.resolve(position, bytes(words.get(0)), false);
        if (!ShellPath.last(st).isDirectory()) {
            throw new ShellException("not a directory");
        }
        position = List.copyOf(st);
    }

    private void ls(PrintStream o, List<String> words) throws IOException {
        List<CatalogEntry> st = words.isEmpty() ? position : paths.resolve(position, bytes(words.get(0)), true);
        CatalogEntry last = ShellPath.last(st);
        if (last.isDirectory()) {
            for (CatalogEntry e : catalog.list(last)) {
                o.write(e.name());
                o.write('\n');
            }
        } else {
            o.write(last.name());
            o.write('\n');
        }
    }

    private void stat(PrintStream o, String path) throws IOException {
        List<CatalogEntry> st = paths.resolve(position, bytes(path), true);
        PxarAccessor.Node n = archive.lookup(ShellPath.relative(st));
        if (n == null) {
            throw new ShellException("no such entry in pxar file: " + CatalogDump.quote(ShellPath.last(st).name()));
        }
        o.print(EntryStat.format(n.entry(), zone));
    }

    private void select(PrintStream o, String path) throws IOException {
        byte[] p = ShellPath.absolute(paths.resolve(position, bytes(path), true));
        String key = new String(p, StandardCharsets.ISO_8859_1);
        if (selected.putIfAbsent(key, MatchEntry.parse(literal(p), true, true)) != null) {
            o.println("path already selected: " + CatalogDump.quote(p));
        } else {
            o.println("added path: " + CatalogDump.quote(p));
        }
    }

    private void deselect(PrintStream o, String path) throws IOException {
        byte[] p = ShellPath.absolute(paths.resolve(position, bytes(path), true));
        if (selected.remove(new String(p, StandardCharsets.ISO_8859_1)) != null) {
            o.println("removed path from selection: " + CatalogDump.quote(p));
        } else {
            o.println("path not selected: " + CatalogDump.quote(p));
        }
    }

    private void listSelected(PrintStream o, List<String> flags) throws IOException {
        if (flags.contains("--patterns")) {
            for (String k : selected.keySet()) {
                o.println(CatalogDump.quote(k.getBytes(StandardCharsets.ISO_8859_1)));
            }
            return;
        }
        printAll(o, CatalogDump.find(catalog, position.get(0), new byte[0], new ArrayList<>(selected.values())));
    }

    private void find(PrintStream o, String glob, List<String> flags) throws IOException {
        MatchEntry p = pattern(glob);
        List<byte[]> found = CatalogDump.find(catalog, position.get(0), new byte[0], List.of(p));
        printAll(o, found);
        if (!found.isEmpty() && flags.contains("--select")) {
            selected.put(glob, p);
        }
    }

    private static void printAll(PrintStream o, List<byte[]> paths) {
        for (byte[] p : paths) {
            o.write(p, 0, p.length);
            o.write('\n');
        }
    }

    /** Restores into {@code target} what {@code patterns} select (everything if empty). */
    private void restore(Path target, List<MatchEntry> patterns) throws IOException {
        Consumer<String> warn = err::println;
        RestorePlan.restore(catalog, position.get(0), archive, payload, target, patterns, warn);
    }

    private static MatchEntry pattern(String glob) {
        return MatchEntry.parse(bytes(glob), true, false);
    }

    /** A path as a glob that matches exactly it (metacharacters escaped). */
    static byte[] literal(byte[] path) {
        java.io.ByteArrayOutputStream o = new java.io.ByteArrayOutputStream();
        for (byte b : path) {
            if (b == '*' || b == '?' || b == '[' || b == ']' || b == '\\') {
                o.write('\\');
            }
            o.write(b);
        }
        return o.toByteArray();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
