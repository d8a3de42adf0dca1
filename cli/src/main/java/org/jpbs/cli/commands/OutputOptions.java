package org.jpbs.cli.commands;

import java.io.PrintStream;
import org.jpbs.cli.CliContext;
import org.jpbs.client.progress.Progress;
import org.jpbs.client.progress.ProgressRenderer;
import picocli.CommandLine.Option;

/**
 * {@code -q/--quiet} and {@code --progress}, shared by the long-running commands. Progress is
 * shown on stderr when stderr is a terminal or {@code --progress} is given, never with
 * {@code --quiet}; quiet also drops summaries and warnings (errors are always printed).
 */
public final class OutputOptions {
    @Option(names = {"-q", "--quiet"}, description = "Print nothing but errors.")
    boolean quiet;

    @Option(names = "--progress", description = "Show progress on stderr even when it is not a terminal.")
    boolean progress;

    /** True unless {@code --quiet}. */
    public boolean verbose() {
        return !quiet;
    }

    /** True if {@code --progress} was given. */
    public boolean progressRequested() {
        return progress;
    }

    /** Prints an informational message to stderr unless quiet. */
    public void info(CliContext ctx, String text) {
        if (!quiet) {
            PrintStream err = ctx.err();
            err.print(text.endsWith("\n") ? text : text + "\n");
            err.flush();
        }
    }

    /** Prints {@code jpbs: warning: ...} to stderr unless quiet. */
    public void warn(CliContext ctx, String text) {
        info(ctx, "jpbs: warning: " + text);
    }

    /** Starts a progress renderer on stderr if progress is wanted, else a disabled one. */
    public ProgressRenderer startProgress(CliContext ctx, Progress p, String label) {
        if (quiet || !(progress || ctx.stderrIsTerminal())) {
            return ProgressRenderer.disabled();
        }
        return ProgressRenderer.start(p, ctx.err(), label, ctx.stderrIsTerminal(),
                ProgressRenderer.DEFAULT_INTERVAL_MILLIS);
    }
}
