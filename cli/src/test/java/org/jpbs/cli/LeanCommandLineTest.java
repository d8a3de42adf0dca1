package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Model.CommandSpec;

/**
 * A command runs in a tree holding only its own top-level command (built faster than the whole
 * tree, {@code docs/pxar.md#benchmark}); what it prints is what the whole tree prints: for every
 * command and subcommand, {@code jpbs CMD... --help} (the lean tree) equals {@code jpbs help
 * CMD...} and {@code jpbs CMD... SUB --help} equals the whole tree's help of it; a usage error
 * names the command as before.
 */
class LeanCommandLineTest {
    @TempDir
    Path tmp;

    @Test
    void helpIsTheWholeTreesHelp() {
        CliRunner cli = new CliRunner(tmp.resolve("home"), Map.of());
        CommandSpec root = Main.commandSpec();
        int checked = 0;
        for (var e : root.subcommands().entrySet()) {
            String name = e.getKey();
            if (name.equals("help") || e.getValue().getCommandSpec().parent() != root) {
                continue;
            }
            CliRunner.Result lean = cli.run(name, "--help");
            CliRunner.Result whole = cli.run("help", name);
            assertEquals(0, lean.exit(), name + lean.all());
            assertEquals(whole.out(), lean.out(), name);
            for (var sub : e.getValue().getSubcommands().entrySet()) {
                if (sub.getValue().getCommandSpec().parent() != e.getValue().getCommandSpec()
                        || sub.getKey().equals("help")) {
                    continue;
                }
                java.io.StringWriter w = new java.io.StringWriter();
                sub.getValue().usage(new java.io.PrintWriter(w));
                CliRunner.Result r = cli.run(name, sub.getKey(), "--help");
                assertEquals(0, r.exit(), name + " " + sub.getKey() + r.all());
                assertEquals(normalize(w.toString()), normalize(r.out()), name + " " + sub.getKey());
                checked++;
            }
            checked++;
        }
        assertTrue(checked > 50, "commands checked: " + checked);
    }

    @Test
    void usageErrorsNameTheCommand() {
        CliRunner cli = new CliRunner(tmp.resolve("home"), Map.of());
        CliRunner.Result r = cli.run("backup");
        assertEquals(2, r.exit(), r.all());
        assertEquals("jpbs: error: Missing required parameter: 'ARCHIVE' (see 'jpbs backup --help')", r.err().strip());
        r = cli.run("snapshot", "list", "--no-such-option");
        assertEquals(2, r.exit(), r.all());
        assertTrue(r.err().contains("--no-such-option") && r.err().contains("jpbs snapshot list"), r.all());
        List<String> versions = new ArrayList<>();
        versions.add(cli.run("--version").out());
        assertTrue(versions.getFirst().startsWith("jpbs "), versions.toString());
        assertEquals(2, cli.run("no-such-command").exit());
    }

    private static String normalize(String s) {
        return s.replace("\r\n", "\n").strip();
    }
}
