package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The help of every command of the tree, as printed by {@code jpbs ... --help}: no word of a
 * command, option or parameter description is broken across lines, and every command's
 * summary in its parent's command list is a whole sentence.
 */
class HelpTextTest {
    @TempDir
    Path tmp;

    private static void collect(CommandSpec spec, List<CommandSpec> out) {
        out.add(spec);
        for (var sub : spec.subcommands().values()) {
            if (sub.getCommandSpec().parent() == spec && !sub.getCommandName().equals("help")) {
                collect(sub.getCommandSpec(), out);
            }
        }
    }

    private static List<String> path(CommandSpec spec) {
        List<String> p = new ArrayList<>();
        for (CommandSpec s = spec; s.parent() != null; s = s.parent()) {
            p.addFirst(s.name());
        }
        return p;
    }

    @Test
    void noDescriptionWordIsBrokenAcrossLines() {
        List<CommandSpec> all = new ArrayList<>();
        collect(Main.commandSpec(), all);
        CliRunner cli = new CliRunner(tmp.resolve("home"), Map.of());
        for (CommandSpec spec : all) {
            List<String> args = path(spec);
            args.add("--help");
            CliRunner.Result r = cli.run(args.toArray(String[]::new));
            assertEquals(0, r.exit(), args + r.all());
            Set<String> printed = new HashSet<>(Arrays.asList(r.out().split("\\s+")));
            List<String> texts = new ArrayList<>(Arrays.asList(spec.usageMessage().description()));
            for (ArgSpec a : spec.args()) {
                if (a.hidden()) {
                    continue;
                }
                texts.addAll(Arrays.asList(a.description()));
            }
            for (String text : texts) {
                for (String word : text.replace("%n", " ").split("\\s+")) {
                    if (!word.isEmpty() && !word.contains("${")) {
                        assertTrue(printed.contains(word), String.join(" ", args) + ": '" + word + "' is broken:\n" + r.out());
                    }
                }
            }
        }
    }

    @Test
    void everyCommandSummaryInItsParentsListIsAWholeSentence() {
        List<CommandSpec> all = new ArrayList<>();
        collect(Main.commandSpec(), all);
        for (CommandSpec spec : all.subList(1, all.size())) {
            String[] d = spec.usageMessage().header().length > 0 ? spec.usageMessage().header() : spec.usageMessage().description();
            assertTrue(d.length > 0, path(spec) + " has no description");
            String first = d[0].strip();
            assertTrue(first.endsWith(".") || first.endsWith(")"), path(spec) + ": summary '" + first + "' is cut off");
        }
    }
}
