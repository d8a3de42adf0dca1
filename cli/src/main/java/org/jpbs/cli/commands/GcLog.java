package org.jpbs.cli.commands;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.jpbs.cli.CliContext;
import org.jpbs.datastore.gc.GcListener;

/**
 * Prints a garbage collection's log on stderr: info lines and warnings (unless quiet), and,
 * when progress is wanted (a terminal or {@code --progress}), a progress line per phase at most
 * once a second. Missing-chunk warnings beyond the first 100 are only counted.
 */
final class GcLog implements GcListener, AutoCloseable {
    private static final int MAX_WARNINGS = 100;

    private final CliContext ctx;
    private final OutputOptions output;
    private final boolean progress;
    private final AtomicLong warnings = new AtomicLong();
    private final AtomicLong lastProgress = new AtomicLong();
    private volatile boolean progressLineOpen;

    GcLog(CliContext ctx, OutputOptions output) {
        this.ctx = ctx;
        this.output = output;
        this.progress = output.verbose() && (output.progressRequested() || ctx.stderrIsTerminal());
    }

    @Override
    public synchronized void info(String line) {
        endProgressLine();
        output.info(ctx, line);
    }

    @Override
    public synchronized void warning(String line) {
        long n = warnings.incrementAndGet();
        if (n <= MAX_WARNINGS) {
            endProgressLine();
            output.warn(ctx, line);
        } else if (n == MAX_WARNINGS + 1) {
            output.warn(ctx, "more warnings follow; only their number is shown at the end");
        }
    }

    @Override
    public void progress(Phase phase, long done, long total) {
        if (!progress) {
            return;
        }
        long now = System.nanoTime();
        long last = lastProgress.get();
        if (done < total && now - last < 1_000_000_000L) {
            return;
        }
        if (!lastProgress.compareAndSet(last, now)) {
            return;
        }
        synchronized (this) {
            String what = phase == Phase.MARK ? "index files" : "chunk directories";
            String text = String.format(Locale.ROOT, "phase %d: %d/%d %s (%.0f%%)", phase == Phase.MARK ? 1 : 2,
                    done, total, what, total == 0 ? 100.0 : done * 100.0 / total);
            if (ctx.stderrIsTerminal()) {
                ctx.err().print("\r" + text + "\u001b[K");
                progressLineOpen = true;
            } else {
                ctx.err().println(text);
            }
            ctx.err().flush();
        }
    }

    private void endProgressLine() {
        if (progressLineOpen) {
            ctx.err().println();
            progressLineOpen = false;
        }
    }

    /** Ends an open progress line and reports suppressed warnings. */
    @Override
    public synchronized void close() {
        endProgressLine();
        if (warnings.get() > MAX_WARNINGS) {
            output.warn(ctx, warnings.get() + " warnings in total");
        }
    }
}
