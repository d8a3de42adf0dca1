package org.jpbs.cli.keys;

import java.io.Console;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.jpbs.cli.CliContext;

/**
 * Reads passphrases the way the PBS client does: from the environment variable {@code NAME}
 * itself, else from {@code NAME_FD} (an open file descriptor), else from {@code NAME_FILE} (a
 * file); only the first line counts, without its line end. Without any of them a terminal
 * prompt is used if there is a terminal, else it is an error naming the variable.
 */
public final class Secrets {
    /** The key file passphrase (PBS name). */
    public static final String ENCRYPTION_PASSWORD = "PBS_ENCRYPTION_PASSWORD";
    /** The new passphrase for {@code key change-passphrase} and {@code key import-with-master-key} (jpbs only). */
    public static final String NEW_ENCRYPTION_PASSWORD = "JPBS_NEW_ENCRYPTION_PASSWORD";
    /** The passphrase of the RSA master private key (jpbs only; PBS always prompts). */
    public static final String MASTER_KEY_PASSWORD = "JPBS_MASTER_KEY_PASSWORD";

    private final CliContext ctx;

    /** Reads from {@code ctx}'s environment; prompts on the process console. */
    public Secrets(CliContext ctx) {
        this.ctx = ctx;
    }

    /**
     * The secret named {@code base}, or null if none of {@code base}, {@code base_FD},
     * {@code base_FILE} is set.
     *
     * @throws IOException naming the variable if the descriptor or file cannot be read
     */
    public byte[] fromEnv(String base) throws IOException {
        String v = ctx.getenv(base);
        if (v != null) {
            return firstLine(v.getBytes(StandardCharsets.UTF_8));
        }
        String fd = ctx.getenv(base + "_FD");
        if (fd != null) {
            int n;
            try {
                n = Integer.parseInt(fd.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(base + "_FD: not a file descriptor number: '" + fd + "'");
            }
            return firstLine(read(InheritedFd.path(n, base + "_FD"), base + "_FD"));
        }
        String file = ctx.getenv(base + "_FILE");
        if (file != null) {
            return firstLine(read(Path.of(file), base + "_FILE"));
        }
        return null;
    }

    private static byte[] read(Path p, String var) throws IOException {
        try {
            return Files.readAllBytes(p);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IOException(var + ": cannot read " + p + ": no such file or directory", e);
        } catch (java.nio.file.AccessDeniedException e) {
            throw new IOException(var + ": cannot read " + p + ": permission denied", e);
        } catch (IOException e) {
            throw new IOException(var + ": cannot read " + p + ": " + e.getMessage(), e);
        }
    }

    /**
     * The secret from the environment, else typed at a terminal ({@code prompt}; with
     * {@code confirm} typed twice and compared).
     *
     * @throws IOException if there is neither (message names the variable), or the two entries differ
     */
    public byte[] read(String base, String prompt, boolean confirm) throws IOException {
        byte[] v = fromEnv(base);
        if (v != null) {
            return v;
        }
        Console console = System.console();
        if (console == null || !console.isTerminal()) {
            throw new IOException("no passphrase: set " + base + " (or " + base + "_FD, " + base
                    + "_FILE) or run on a terminal");
        }
        char[] a = console.readPassword("%s", prompt);
        if (a == null) {
            throw new IOException("no passphrase entered");
        }
        if (confirm) {
            char[] b = console.readPassword("Verify %s", prompt);
            if (b == null || !Arrays.equals(a, b)) {
                throw new IOException("the passphrases do not match");
            }
        }
        return new String(a).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] firstLine(byte[] data) {
        int n = 0;
        while (n < data.length && data[n] != '\n') {
            n++;
        }
        if (n > 0 && data[n - 1] == '\r') {
            n--;
        }
        return Arrays.copyOf(data, n);
    }
}
