package org.jpbs.cli;

import java.io.PrintWriter;
import java.lang.reflect.Constructor;
import java.nio.charset.Charset;
import java.util.concurrent.Callable;
import org.jpbs.cli.admin.AclCommand;
import org.jpbs.cli.admin.CertCommand;
import org.jpbs.cli.admin.ServeCommand;
import org.jpbs.cli.admin.UserCommand;
import org.jpbs.cli.commands.BackupCommand;
import org.jpbs.cli.commands.DatastoreCommand;
import org.jpbs.cli.commands.GcCommand;
import org.jpbs.cli.commands.PruneCommand;
import org.jpbs.cli.commands.RestoreCommand;
import org.jpbs.cli.manage.SnapshotCommand;
import org.jpbs.cli.commands.VerifyCommand;
import org.jpbs.cli.keys.KeyCommand;
import org.jpbs.cli.vma.VmaCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code jpbs} command line: a picocli command tree with one class per command
 * ({@code datastore create}, {@code backup}, {@code restore}, {@code snapshot list},
 * {@code snapshot files}). {@code --help} works on every command, {@code --version} on the top.
 *
 * <p>Exit codes: 0 success, 1 error while running (one line {@code jpbs: error: ...} on stderr),
 * 2 usage error: picocli's parameter errors and the commands' own {@link UsageException}s
 * (malformed or out-of-range option values, including environment variables standing for options).
 * Tests call {@link #run(String...)} or {@link #run(CliContext, String...)} instead of
 * {@link #main}, which exits the JVM.
 */
@Command(name = "jpbs", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Deduplicating backups in a Proxmox Backup Server compatible datastore.",
        subcommands = {DatastoreCommand.class, BackupCommand.class, RestoreCommand.class,
            org.jpbs.cli.commands.CatalogCommand.class, org.jpbs.cli.commands.MountCommand.class,
            org.jpbs.cli.commands.UnmountCommand.class, SnapshotCommand.class,
            GcCommand.class, PruneCommand.class, VerifyCommand.class,
            org.jpbs.cli.manage.ListCommand.class, org.jpbs.cli.manage.StatusCommand.class,
            org.jpbs.cli.manage.ChangeOwnerCommand.class, org.jpbs.cli.manage.GroupCommand.class,
            org.jpbs.cli.manage.NamespaceCommand.class,
            org.jpbs.cli.manage.TaskCommand.class, org.jpbs.cli.manage.LoginCommand.class,
            org.jpbs.cli.manage.LoginCommand.Logout.class, org.jpbs.cli.manage.BenchmarkCommand.class,
            org.jpbs.cli.manage.CompletionCommand.class, org.jpbs.cli.manage.CalendarEventCommand.class,
            org.jpbs.cli.jobs.JobCommands.Prune.class, org.jpbs.cli.jobs.JobCommands.Verify.class,
            org.jpbs.cli.jobs.JobCommands.Sync.class, org.jpbs.cli.jobs.JobCommands.Remote.class,
            org.jpbs.cli.jobs.OneOffSync.Pull.class, org.jpbs.cli.jobs.OneOffSync.Push.class,
            ServeCommand.class, CertCommand.class, UserCommand.class, AclCommand.class, KeyCommand.class,
            org.jpbs.cli.admin.NotificationCommand.class,
            VmaCommand.class, org.jpbs.cli.s3.S3Command.class,
            CommandLine.HelpCommand.class},
        footer = {"",
            "Repository: --repository PATH or [[user@realm[!token]@]host[:port]:]datastore, else $PBS_REPOSITORY,"
                + " else ~/.local/share/jpbs/datastore (created on first use). A local directory is written as a"
                + " path (/srv/store, ./store, ~/store); a bare name (store1) is a datastore on the server at"
                + " localhost:8007 as root@pam, as for proxmox-backup-client.",
            "",
            "Server: the password or API token secret comes from $PBS_PASSWORD (else a cached ticket of"
                + " 'jpbs login', else a prompt on a terminal); a self-signed certificate needs $PBS_FINGERPRINT or"
                + " --fingerprint, or is accepted once at a prompt and remembered.",
            "",
            "Encryption: backup/restore --keyfile KEY (passphrase: $PBS_ENCRYPTION_PASSWORD); see 'jpbs key --help'.",
            "",
            "Exit codes: 0 success, 1 error while running, 2 usage error (bad option, argument or option-like"
                + " variable such as PBS_REPOSITORY). Each command has --help; 'jpbs completion bash' prints a"
                + " completion script."})
public final class Main implements Callable<Integer> {
    private final CliContext ctx;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private Main(CliContext ctx) {
        this.ctx = ctx;
    }

    /** Runs the command line on the real process streams and exits the JVM with its exit code. */
    public static void main(String[] args) {
        configureJvm();
        int rc = run(args);
        org.jpbs.client.http.EventLoops.shutdown();   // else the JVM's exit waits 300 ms for them
        System.exit(rc);
    }

    /** Kept referenced so that its level stays set. */
    private static java.util.logging.Logger quietNetty;

    /** Log line format: one line, ISO-8601 local time with offset, level, logger, message, stack trace. */
    public static final String LOG_FORMAT = "%1$tFT%1$tT.%1$tL%1$tz %4$s %3$s: %5$s%6$s%n";

    /**
     * Process-wide settings made before any library class loads: server log lines as
     * {@link #LOG_FORMAT} ({@code java.util.logging.SimpleFormatter.format}), and Netty's machine
     * id ({@code io.netty.machineId}, a random locally administered MAC) so that a host without a
     * network interface is not warned about on every command ("Failed to find a usable hardware
     * address"), Netty's buffer leak detector off ({@code io.netty.leakDetection.level}), and SLF4J's own warnings off ({@code slf4j.internal.verbosity}: no provider is
     * on the class path, on purpose). Settings given with {@code -D} win.
     */
    public static void configureJvm() {

        if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
            System.setProperty("java.util.logging.SimpleFormatter.format", LOG_FORMAT);
        }
        if (System.getProperty("io.netty.machineId") == null) {
            byte[] mac = new byte[6];
            new java.security.SecureRandom().nextBytes(mac);
            mac[0] = (byte) ((mac[0] & 0xfc) | 0x02); // unicast, locally administered
            StringBuilder b = new StringBuilder();
            for (byte x : mac) {
                b.append(b.isEmpty() ? "" : ":").append(String.format("%02x", x & 0xff));
            }
            System.setProperty("io.netty.machineId", b.toString());
        }
        // Netty's buffer leak detector samples one allocation in 128 and records a stack trace for
        // it: 13 % of the server's CPU in a backup, 24 % in a restore (docs/network-client.md,
        // "Session 11"). The tests, which do not come through here, keep it on.
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            System.setProperty("io.netty.leakDetection.level", "disabled");
        }
        // Netty probes for SLF4J (slf4j-api comes with a dependency, no provider does) before it
        // falls back to java.util.logging: without this SLF4J prints three warning lines on
        // every command that opens a connection
        if (System.getProperty("slf4j.internal.verbosity") == null) {
            System.setProperty("slf4j.internal.verbosity", "ERROR");
        }
        // a host (or network namespace) without interfaces: Netty's interface scan warns with a
        // stack trace on every command; jpbs needs no interface list. After the format is set.
        quietNetty = java.util.logging.Logger.getLogger("io.netty.util.NetUtilInitializations");
        quietNetty.setLevel(java.util.logging.Level.SEVERE);
    }

    /**
     * Parses and runs one command on the current {@code System.out}/{@code System.err}, the
     * process environment and home directory.
     *
     * @param args the arguments after {@code jpbs}
     * @return the exit code: 0 success, 1 error, 2 usage error
     */
    public static int run(String... args) {
        return run(CliContext.system(), args);
    }

    /**
     * Parses and runs one command in the given context (tests pass their own streams and environment).
     *
     * @return the exit code: 0 success, 1 error, 2 usage error
     */
    public static int run(CliContext ctx, String... args) {
        Main main = new Main(ctx);
        CommandLine lean = args.length > 0 ? main.commandLineFor(args[0]) : null;
        int rc = (lean != null ? lean : main.commandLine()).execute(args);
        ctx.out().flush();
        ctx.err().flush();
        return rc;
    }

    /** The command model of {@code jpbs} (for generated man pages), on the system context. */
    public static CommandLine.Model.CommandSpec commandSpec() {
        return new Main(CliContext.system()).commandLine().getCommandSpec();
    }

    /** The configured picocli command tree (streams, error handling, factory). */
    private CommandLine commandLine() {
        return configure(new CommandLine(this, new Factory(ctx)));
    }

    /**
     * The command tree with only the top-level command {@code name} below {@code jpbs} (its own
     * subcommands all there), or null if {@code name} is none of them or needs the whole tree
     * ({@code help}, {@code completion}). Building picocli's model of every command from its
     * annotations costs more CPU than a small backup ({@code docs/pxar.md#benchmark}); a command
     * runs, parses and reports errors in this tree as in the whole one.
     */
    private CommandLine commandLineFor(String name) {
        for (Class<?> cls : Main.class.getAnnotation(Command.class).subcommands()) {
            Command c = cls.getAnnotation(Command.class);
            if (c == null || cls == CommandLine.HelpCommand.class
                    || cls == org.jpbs.cli.manage.CompletionCommand.class) {
                continue;
            }
            if (c.name().equals(name) || java.util.Arrays.asList(c.aliases()).contains(name)) {
                Factory factory = new Factory(ctx);
                CommandLine.Model.CommandSpec root = CommandLine.Model.CommandSpec.wrapWithoutInspection(this)
                        .name("jpbs").mixinStandardHelpOptions(true);
                root.versionProvider(new Version());
                CommandLine cl = new CommandLine(root, factory);
                cl.addSubcommand(c.name(), new CommandLine(cls, factory), c.aliases());
                return configure(cl);
            }
        }
        return null;
    }

    private CommandLine configure(CommandLine cl) {
        HelpWrap.apply(cl);
        Charset cs = Charset.defaultCharset();
        cl.setOut(new PrintWriter(new java.io.OutputStreamWriter(ctx.out(), cs), true));
        cl.setErr(new PrintWriter(new java.io.OutputStreamWriter(ctx.err(), cs), true));
        ErrorReporter errors = new ErrorReporter(ctx);
        cl.setExecutionExceptionHandler(errors);
        cl.setParameterExceptionHandler(errors);
        return cl;
    }

    /** {@code jpbs} without a command: prints the usage to stderr, exit code 2. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ErrorReporter.EXIT_USAGE;
    }

    /** Creates commands, handing the {@link CliContext} to constructors that take one. */
    private record Factory(CliContext ctx) implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> cls) throws Exception {
            if (cls == Main.class) {
                return cls.cast(new Main(ctx));
            }
            try {
                Constructor<K> c = cls.getDeclaredConstructor(CliContext.class);
                return c.newInstance(ctx);
            } catch (NoSuchMethodException e) {
                return CommandLine.defaultFactory().create(cls);
            }
        }
    }

    /** {@code --version}: the jar's Implementation-Version, the Java version. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"jpbs " + (v == null ? "(development build)" : v),
                "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")"};
        }
    }
}
