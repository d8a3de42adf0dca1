package org.jpbs.cli.manage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Man pages (roff, section 1) generated from the picocli command model: {@code jpbs.1} and one
 * page per subcommand ({@code jpbs-snapshot-notes-show.1}), each with NAME, SYNOPSIS,
 * DESCRIPTION, ARGUMENTS, OPTIONS, COMMANDS (with a SEE ALSO to them) and, for the top page, the
 * footer text. The build writes them to {@code cli/target/man} ({@link #main}).
 */
public final class ManPages {
    private ManPages() {}

    /** Writes the pages of the {@code jpbs} command tree into {@code args[0]}. */
    public static void main(String[] args) throws IOException {
        CommandLine cl = new CommandLine(org.jpbs.cli.Main.commandSpec());
        int n = write(cl, Path.of(args.length > 0 ? args[0] : "target/man"));
        System.out.println("wrote " + n + " man pages");
    }

    /**
     * Writes one page per command below and including {@code root}.
     *
     * @return the number of pages
     */
    public static int write(CommandLine root, Path dir) throws IOException {
        Files.createDirectories(dir);
        List<CommandLine> all = new ArrayList<>();
        collect(root, all);
        for (CommandLine c : all) {
            Files.writeString(dir.resolve(pageName(c.getCommandSpec()) + ".1"), page(c.getCommandSpec()),
                    StandardCharsets.UTF_8);
        }
        return all.size();
    }

    private static void collect(CommandLine c, List<CommandLine> out) {
        out.add(c);
        for (CommandLine sub : c.getSubcommands().values()) {
            if (!sub.getCommandSpec().usageMessage().hidden() && !out.contains(sub)) {
                collect(sub, out);
            }
        }
    }

    static String pageName(CommandSpec s) {
        return s.qualifiedName("-");
    }

    /** The roff text of one command's page. */
    static String page(CommandSpec s) {
        StringBuilder b = new StringBuilder();
        String title = pageName(s).toUpperCase(java.util.Locale.ROOT);
        b.append(".TH \"").append(title).append("\" \"1\" \"").append(LocalDate.now()).append("\" \"jpbs\" \"jpbs manual\"\n");
        b.append(".SH NAME\n").append(esc(s.qualifiedName(" "))).append(" \\- ").append(esc(first(s.usageMessage().description())))
                .append('\n');
        b.append(".SH SYNOPSIS\n.B ").append(esc(s.qualifiedName(" "))).append('\n');
        StringBuilder syn = new StringBuilder();
        if (!s.options().isEmpty()) {
            syn.append("[OPTIONS]");
        }
        for (PositionalParamSpec p : s.positionalParameters()) {
            syn.append(syn.isEmpty() ? "" : " ").append(p.arity().min == 0 ? "[" + p.paramLabel() + "]" : p.paramLabel());
        }
        if (!s.subcommands().isEmpty()) {
            syn.append(syn.isEmpty() ? "" : " ").append("COMMAND");
        }
        b.append(esc(syn.toString())).append('\n');
        b.append(".SH DESCRIPTION\n").append(esc(String.join(" ", s.usageMessage().description()))).append('\n');
        if (!s.positionalParameters().isEmpty()) {
            b.append(".SH ARGUMENTS\n");
            for (PositionalParamSpec p : s.positionalParameters()) {
                b.append(".TP\n.B ").append(esc(p.paramLabel())).append('\n').append(esc(desc(p))).append('\n');
            }
        }
        if (!s.options().isEmpty()) {
            b.append(".SH OPTIONS\n");
            for (OptionSpec o : s.options()) {
                if (o.hidden()) {
                    continue;
                }
                String names = String.join(", ", o.names());
                String label = o.typeInfo().isBoolean() ? "" : " " + o.paramLabel();
                b.append(".TP\n.B ").append(esc(names + label)).append('\n').append(esc(desc(o))).append('\n');
            }
        }
        if (!s.subcommands().isEmpty()) {
            b.append(".SH COMMANDS\n");
            List<String> see = new ArrayList<>();
            for (var e : s.subcommands().entrySet()) {
                CommandSpec sub = e.getValue().getCommandSpec();
                if (sub.usageMessage().hidden() || !sub.name().equals(e.getKey())) {
                    continue;
                }
                b.append(".TP\n.B ").append(esc(e.getKey())).append('\n')
                        .append(esc(first(sub.usageMessage().description()))).append('\n');
                see.add(".BR " + pageName(sub) + " (1)");
            }
            if (s.parent() == null && s.usageMessage().footer().length > 0) {
                b.append(".SH NOTES\n");
                for (String line : s.usageMessage().footer()) {
                    b.append(line.isEmpty() ? ".PP" : esc(line)).append('\n');
                }
            }
            b.append(".SH SEE ALSO\n").append(String.join(",\n", see)).append('\n');
        }
        return b.toString();
    }

    private static String desc(ArgSpec a) {
        return String.join(" ", a.description());
    }

    private static String first(String[] lines) {
        return lines.length == 0 ? "" : lines[0];
    }

    /** Escapes roff: backslashes, and a leading dot or quote. */
    static String esc(String s) {
        String e = s.replace("\\", "\\e").replace("-", "\\-");
        return e.startsWith(".") || e.startsWith("'") ? "\\&" + e : e;
    }
}
