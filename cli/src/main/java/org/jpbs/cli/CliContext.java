package org.jpbs.cli;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import org.jpbs.client.progress.ProgressRenderer;

/**
 * What a command may touch of the outside world, so that tests can run the whole command line
 * in-process: text output, error output, the raw standard output (for restoring to
 * {@code -}), the environment and the home directory.
 *
 * @param out              text output (tables, listings)
 * @param err              messages, progress and summaries
 * @param rawOut           binary standard output (restore to {@code -})
 * @param env              environment variables (e.g. {@code PBS_REPOSITORY})
 * @param home             the user's home directory (default datastore location)
 * @param stderrIsTerminal whether {@code err} is a terminal (progress shown by default)
 */
public record CliContext(PrintStream out, PrintStream err, OutputStream rawOut, Map<String, String> env, Path home,
        boolean stderrIsTerminal) {

    /**
     * The real process: {@code System.out}/{@code System.err}, standard output for data that fails
     * on a write error ({@link StdoutStream}), the real environment, and the home
     * directory from {@code $HOME} (as shell users expect), else Java's {@code user.home}.
     */
    public static CliContext system() {
        String home = System.getenv("HOME");
        Path homeDir = home != null && !home.isEmpty() ? Path.of(home) : Path.of(System.getProperty("user.home"));
        return new CliContext(System.out, System.err, StdoutStream.system(), System.getenv(), homeDir,
                ProgressRenderer.stderrIsTerminal());
    }

    /** Environment variable or null. */
    public String getenv(String name) {
        return env.get(name);
    }
}
