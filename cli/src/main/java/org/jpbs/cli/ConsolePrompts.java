package org.jpbs.cli;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Locale;
import java.util.function.Function;
import org.jpbs.client.remote.Interaction;

/**
 * Prompts on a terminal, as proxmox-backup-client asks: an unknown certificate shows its
 * fingerprint and asks {@code Are you sure you want to continue connecting? (y/n): }, a user
 * repository without {@code $PBS_PASSWORD} asks {@code Password for "user@realm": } without echo.
 * Only the real process with a terminal ({@link Console#isTerminal()}) asks; tests and pipes do not.
 */
public final class ConsolePrompts implements Interaction {
    private final PrintStream err;
    private final BufferedReader in;
    private final Function<String, char[]> secretReader;

    /**
     * Prompts writing to {@code err} and reading answers from {@code in}; {@code secretReader}
     * reads a password after printing its prompt (no echo on a console).
     */
    public ConsolePrompts(PrintStream err, BufferedReader in, Function<String, char[]> secretReader) {
        this.err = err;
        this.in = in;
        this.secretReader = secretReader;
    }

    /** The prompts of this process if it runs on a terminal with the system streams, else {@link Interaction#none()}. */
    public static Interaction forContext(CliContext ctx) {
        Console c = System.console();
        if (c == null || !c.isTerminal() || ctx.err() != System.err) {
            return Interaction.none();
        }
        return new ConsolePrompts(System.err, new BufferedReader(c.reader()), prompt -> c.readPassword("%s", prompt));
    }

    @Override
    public boolean canAsk() {
        return true;
    }

    @Override
    public boolean trustCertificate(String server, String fingerprint) {
        err.println("fingerprint: " + fingerprint);
        for (int i = 0; i < 3; i++) {
            err.print("Are you sure you want to continue connecting? (y/n): ");
            err.flush();
            String line;
            try {
                line = in.readLine();
            } catch (IOException e) {
                return false;
            }
            if (line == null) {
                return false;
            }
            String a = line.trim().toLowerCase(Locale.ROOT);
            if (a.equals("y") || a.equals("yes")) {
                return true;
            }
            if (a.equals("n") || a.equals("no")) {
                return false;
            }
        }
        return false;
    }

    @Override
    public String password(String authId, String server) {
        char[] pw = secretReader.apply("Password for \"" + authId + "\": ");
        return pw == null ? null : new String(pw);
    }
}
