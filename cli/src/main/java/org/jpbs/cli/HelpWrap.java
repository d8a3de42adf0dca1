package org.jpbs.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Wraps option and parameter descriptions at spaces before picocli lays them out. Picocli breaks
 * an overlong line where {@link java.text.BreakIterator} allows, which includes the middle of
 * {@code ~/.config/...} or {@code localhost:8007:store1}; a description given as lines that fit
 * its column is printed as is. Applied once to the whole command tree ({@link #apply}).
 */
final class HelpWrap {
    /** Width of the description column of an 80-column help, less the continuation indent. */
    static final int WIDTH = 50;

    private HelpWrap() {}

    /** Rewrites every command's option and parameter descriptions (order kept). */
    static void apply(CommandLine cl) {
        wrapSpec(cl.getCommandSpec());
        for (CommandLine sub : cl.getSubcommands().values()) {
            if (sub.getParent() == cl) {
                apply(sub);
            }
        }
    }

    private static void wrapSpec(CommandSpec spec) {
        boolean needed = false;
        for (ArgSpec a : spec.args()) {
            needed |= a.group() == null && tooLong(a.description());
        }
        if (!needed) {
            return;
        }
        List<OptionSpec> options = new ArrayList<>(spec.options());
        List<PositionalParamSpec> positionals = new ArrayList<>(spec.positionalParameters());
        for (OptionSpec o : options) {
            if (o.group() == null) {
                spec.remove(o);
            }
        }
        for (PositionalParamSpec p : positionals) {
            if (p.group() == null) {
                spec.remove(p);
            }
        }
        for (OptionSpec o : options) {
            if (o.group() == null) {
                spec.addOption(tooLong(o.description()) ? o.toBuilder().description(wrap(o.description())).build() : o);
            }
        }
        for (PositionalParamSpec p : positionals) {
            if (p.group() == null) {
                spec.addPositional(tooLong(p.description()) ? p.toBuilder().description(wrap(p.description())).build() : p);
            }
        }
    }

    private static boolean tooLong(String[] lines) {
        for (String l : lines) {
            if (l.length() > WIDTH) {
                return true;
            }
        }
        return false;
    }

    /** The lines, each broken at spaces into pieces of at most {@link #WIDTH} characters. */
    static String[] wrap(String[] lines) {
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            StringBuilder cur = new StringBuilder();
            for (String word : line.split(" ")) {
                if (!cur.isEmpty() && cur.length() + 1 + word.length() > WIDTH) {
                    out.add(cur.toString());
                    cur.setLength(0);
                }
                cur.append(cur.isEmpty() ? "" : " ").append(word);
            }
            out.add(cur.toString());
        }
        return out.toArray(String[]::new);
    }
}
