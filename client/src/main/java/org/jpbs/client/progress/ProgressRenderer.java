package org.jpbs.client.progress;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Prints a {@link Progress} to a stream (normally stderr) from its own daemon thread, at a
 * fixed interval (default 500 ms, i.e. at most about two updates a second).
 *
 * <p>On a terminal each update overwrites the previous one ({@code \r}); otherwise (a log file,
 * a pipe) each update is a line of its own. {@link #close()} stops the thread and prints the
 * final state once, ending the line. A renderer created by {@link #disabled()} prints nothing.
 */
public final class ProgressRenderer implements AutoCloseable {
    /** Default interval between updates in milliseconds. */
    public static final long DEFAULT_INTERVAL_MILLIS = 500;

    private final Progress progress;
    private final PrintStream out;
    private final String label;
    private final boolean terminal;
    private final Thread thread;
    private int lastWidth;
    private boolean closed;

    private ProgressRenderer(Progress progress, PrintStream out, String label, boolean terminal, long intervalMillis) {
        this.progress = progress;
        this.out = out;
        this.label = label == null ? "" : label;
        this.terminal = terminal;
        if (progress == null) {
            this.thread = null;
            return;
        }
        this.thread = Thread.ofPlatform().daemon().name("jpbs-progress").unstarted(() -> loop(intervalMillis));
        thread.start();
    }

    /**
     * Starts printing.
     *
     * @param progress       the counters to show
     * @param out            where to print (stderr)
     * @param label          text before the numbers, e.g. the archive name (may be empty)
     * @param terminal       true to overwrite the line in place, false for one line per update
     * @param intervalMillis time between updates in milliseconds (&gt; 0)
     */
    public static ProgressRenderer start(Progress progress, PrintStream out, String label, boolean terminal,
            long intervalMillis) {
        if (intervalMillis <= 0) {
            throw new IllegalArgumentException("interval must be > 0 ms, got " + intervalMillis);
        }
        return new ProgressRenderer(progress, out, label, terminal, intervalMillis);
    }

    /** A renderer that prints nothing (for quiet runs). */
    public static ProgressRenderer disabled() {
        return new ProgressRenderer(null, null, null, false, 0);
    }

    /**
     * Returns true if this process's stderr (file descriptor 2) is a terminal. Linux only: it
     * reads the {@code /proc/self/fd/2} link; false wherever that is not possible.
     */
    public static boolean stderrIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (Exception e) {
            return false;
        }
    }

    private void loop(long intervalMillis) {
        try {
            while (true) {
                Thread.sleep(intervalMillis);
                print(false);
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    private synchronized void print(boolean last) {
        if (closed) {
            return;
        }
        String line = label + progress.render();
        if (terminal) {
            int pad = Math.max(0, lastWidth - line.length());
            out.print("\r" + line + " ".repeat(pad) + (last ? "\n" : ""));
            lastWidth = line.length();
        } else {
            out.println(line);
        }
        out.flush();
    }

    /** Stops the updates and prints the final state once (nothing for a disabled renderer). */
    @Override
    public void close() {
        if (thread == null) {
            return;
        }
        thread.interrupt();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        print(true);
        synchronized (this) {
            closed = true;
        }
    }
}
