package org.jpbs.cli.jobs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.UsageException;
import org.jpbs.cli.admin.ConfigDirOption;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.datastore.jobs.JobConfig;
import org.jpbs.datastore.jobs.JobConfigFile;
import org.jpbs.datastore.jobs.JobConfigStore;
import org.jpbs.datastore.jobs.JobKind;
import org.jpbs.datastore.jobs.JobStateStore;
import org.jpbs.datastore.jobs.JobValueException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The job file commands, one set per {@link JobKind}: {@code list}, {@code create ID --key value
 * ...}, {@code update ID [--key value ...] [--delete KEY ...]}, {@code remove ID}; the
 * {@code --key} options are PBS's property names, checked by the job file schema before anything
 * is written. Remote passwords are stored base64-encoded (as PBS) and never printed.
 */
public final class JobCommands {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JobCommands() {}

    /** {@code jpbs prune-job}. */
    @Command(name = "prune-job", description = {"Manage prune jobs (prune.cfg).",
        "Keys: store, schedule, ns, max-depth, keep-last|hourly|daily|weekly|monthly|yearly, comment, disable."},
            subcommands = {ListCmd.class, CreateCmd.class, UpdateCmd.class, RemoveCmd.class, RunCommand.class})
    public static final class Prune extends Group {
        @Override
        JobKind kind() {
            return JobKind.PRUNE;
        }
    }

    /** {@code jpbs verify-job}. */
    @Command(name = "verify-job", description = {"Manage verification jobs (verification.cfg).",
        "Keys: store, schedule, ns, max-depth, ignore-verified, outdated-after, comment;",
        "read-threads, verify-threads (PBS 4's; kept, not acted on)."},
            subcommands = {ListCmd.class, CreateCmd.class, UpdateCmd.class, RemoveCmd.class, RunCommand.class})
    public static final class Verify extends Group {
        @Override
        JobKind kind() {
            return JobKind.VERIFY;
        }
    }

    /** {@code jpbs sync-job}. */
    @Command(name = "sync-job", description = {"Manage sync jobs (sync.cfg).",
        "Keys: store, ns, remote, remote-store, remote-ns, max-depth, schedule, group-filter, remove-vanished,",
        "transfer-last, owner, encrypted-only, verified-only, resync-corrupt, rate-in, burst-in, rate-out,",
        "burst-out, sync-direction (pull|push), comment; run-on-mount, active-encryption-key,",
        "associated-key (PBS's; kept, not acted on).",
        "--group-filter and --associated-key are repeatable (one item each, as PBS)."},
            subcommands = {ListCmd.class, CreateCmd.class, UpdateCmd.class, RemoveCmd.class, RunCommand.class})
    public static final class Sync extends Group {
        @Override
        JobKind kind() {
            return JobKind.SYNC;
        }
    }

    /** {@code jpbs remote}. */
    @Command(name = "remote", description = {"Manage remotes (remote.cfg).",
        "Keys: host, port, auth-id, password, fingerprint, comment; use-node-proxy (PBS 4's; kept, not acted on)."},
            subcommands = {ListCmd.class, CreateCmd.class, UpdateCmd.class, RemoveCmd.class})
    public static final class Remote extends Group {
        @Override
        JobKind kind() {
            return JobKind.REMOTE;
        }
    }

    /** A command group: alone it prints its usage (exit 2). */
    public abstract static class Group implements Callable<Integer> {
        @Mixin
        HelpOption help;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        abstract JobKind kind();

        @Override
        public Integer call() {
            spec.commandLine().usage(spec.commandLine().getErr());
            return 2;
        }
    }

    /** Base of the subcommands: the kind comes from the parent group. */
    public abstract static class Sub implements Callable<Integer> {
        @Mixin
        HelpOption help;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Mixin
        ConfigDirOption configDir;

        final CliContext ctx;

        Sub(CliContext ctx) {
            this.ctx = ctx;
        }

        JobKind kind() {
            return ((Group) spec.parent().userObject()).kind();
        }

        Path dir() {
            return configDir.resolve(ctx);
        }

        JobConfigStore store() {
            return JobConfigStore.open(dir(), kind());
        }

        /**
     * {@code --key value} / {@code --key=value} pairs of PBS property names; an array property
     * ({@code --group-filter}) may be repeated, its items joined with {@code '\n'} in order.
     */
        Map<String, String> properties(List<String> raw) {
            Map<String, String> m = new LinkedHashMap<>();
            List<String> args = raw == null ? List.of() : raw;
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                if (!a.startsWith("--") || a.length() == 2) {
                    throw new UsageException("unexpected argument '" + a + "' (expected --KEY VALUE)");
                }
                String key = a.substring(2);
                String value;
                int eq = key.indexOf('=');
                if (eq >= 0) {
                    value = key.substring(eq + 1);
                    key = key.substring(0, eq);
                } else if (i + 1 < args.size()) {
                    value = args.get(++i);
                } else {
                    throw new UsageException("--" + key + ": missing value");
                }
                if (!kind().keys().contains(key)) {
                    throw new UsageException("unknown option '--" + key + "' for " + spec.parent().name()
                            + " (keys: " + String.join(", ", kind().keys()) + ")");
                }
                if (value.indexOf('\n') >= 0) {
                    throw new UsageException("--" + key + ": must not contain a line break");
                }
                try {
                    kind().checkValue(key, value);
                } catch (JobValueException e) {
                    throw new UsageException("--" + e.key() + ": " + e.reason(), e);
                } catch (IllegalArgumentException e) {
                    throw new UsageException("--" + key + ": " + e.getMessage(), e);
                }
                if (kind().listKeys().contains(key) && m.containsKey(key)) {
                    m.put(key, m.get(key) + "\n" + value); // an array property, as PBS: repeat the option
                } else if (m.put(key, key.equals("password") ? encode(value) : value) != null) {
                    throw new UsageException("--" + key + " given twice");
                }
            }
            return m;
        }

        private static String encode(String password) {
            return java.util.Base64.getEncoder().encodeToString(password.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }

        void info(String line) {
            ctx.err().println(line);
        }
    }

    /** {@code list}. */
    @Command(name = "list", description = "List the configured entries (--output-format json for JSON).")
    public static final class ListCmd extends Sub {
        @Option(names = "--output-format", paramLabel = "FORMAT", defaultValue = "text",
                description = "text (default), json or json-pretty.")
        String format;

        public ListCmd(CliContext ctx) {
            super(ctx);
        }

        @Override
        public Integer call() throws IOException {
            List<JobConfig> all = store().read().all();
            if (format.startsWith("json")) {
                ArrayNode a = JSON.createArrayNode();
                for (JobConfig c : all) {
                    ObjectNode o = a.addObject();
                    o.put(kind().idProperty(), c.id()); // as PBS's API: remotes by "name", jobs by "id"
                    c.props().forEach((k, v) -> {
                        if (kind().listKeys().contains(k)) {
                            c.values(k).forEach(o.putArray(k)::add);
                        } else if (!k.equals("password")) {
                            o.put(k, v);
                        }
                    });
                }
                ctx.out().println(format.equals("json-pretty") ? a.toPrettyString() : a.toString());
                return 0;
            } else if (!format.equals("text")) {
                throw new UsageException("--output-format: '" + format + "' is not text, json or json-pretty");
            }
            for (JobConfig c : all) {
                List<String> parts = new ArrayList<>();
                c.props().forEach((k, v) -> {
                    if (kind().listKeys().contains(k)) {
                        c.values(k).forEach(item -> parts.add(k + "=" + item));
                    } else if (!k.equals("password")) {
                        parts.add(k + "=" + v);
                    }
                });
                ctx.out().println(c.id() + "\t" + String.join(" ", parts));
            }
            return 0;
        }
    }

    /** {@code create ID --key value ...}. */
    @Command(name = "create", description = "Create an entry; options are the PBS keys (--store S --schedule daily ...).")
    public static final class CreateCmd extends Sub {
        @Parameters(index = "0", paramLabel = "ID", description = "Job id or remote name (3..32 characters).")
        String id;

        @CommandLine.Unmatched
        List<String> raw;

        public CreateCmd(CliContext ctx) {
            super(ctx);
        }

        @Override
        public Integer call() throws IOException {
            Map<String, String> props = properties(raw);
            JobConfig c;
            try {
                c = new JobConfig(kind(), id, props);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage(), e);
            }
            store().update(f -> f.with(c));
            if (kind().stateType() != null) {
                JobStateStore.open(dir()).remove(kind().stateType(), id); // a new job starts counting now
            }
            info("created " + kind().sectionType() + " '" + id + "' in " + store().file());
            return 0;
        }
    }

    /** {@code update ID [--key value ...] [--delete KEY ...]}. */
    @Command(name = "update", description = "Change an entry: --KEY VALUE sets, --delete KEY removes (repeatable).")
    public static final class UpdateCmd extends Sub {
        @Parameters(index = "0", paramLabel = "ID", description = "Job id or remote name.")
        String id;

        @Option(names = "--delete", paramLabel = "KEY", description = "Remove a property (repeatable).")
        List<String> delete;

        @CommandLine.Unmatched
        List<String> raw;

        public UpdateCmd(CliContext ctx) {
            super(ctx);
        }

        @Override
        public Integer call() throws IOException {
            Map<String, String> changes = new LinkedHashMap<>(properties(raw));
            for (String k : delete == null ? List.<String>of() : delete) {
                if (kind().requiredKeys().contains(k) || !kind().keys().contains(k)) {
                    throw new UsageException("--delete " + k + ": not a property that can be removed");
                }
                if (changes.containsKey(k)) {
                    throw new UsageException("--delete " + k + " and --" + k + " given together");
                }
                changes.put(k, null);
            }
            if (changes.isEmpty()) {
                throw new UsageException("nothing to change: give --KEY VALUE or --delete KEY");
            }
            JobConfigStore s = store();
            JobConfigFile after = s.update(f -> f.withProperties(id, changes));
            if (changes.containsKey("schedule") && kind().stateType() != null) {
                // as PBS: a changed schedule counts from now, not from the last run
                JobStateStore.open(dir()).touch(kind().stateType(), id, java.time.Instant.now().getEpochSecond());
            }
            info("updated " + kind().sectionType() + " '" + id + "' (" + after.get(id).map(c -> c.props().size()).orElse(0)
                    + " properties)");
            return 0;
        }
    }

    /** {@code remove ID}. */
    @Command(name = "remove", description = "Remove an entry (and its job state).")
    public static final class RemoveCmd extends Sub {
        @Parameters(index = "0", paramLabel = "ID", description = "Job id or remote name.")
        String id;

        public RemoveCmd(CliContext ctx) {
            super(ctx);
        }

        @Override
        public Integer call() throws IOException {
            store().update(f -> f.without(id));
            if (kind().stateType() != null) {
                JobStateStore.open(dir()).remove(kind().stateType(), id);
            }
            info("removed " + kind().sectionType() + " '" + id + "' from " + store().file());
            return 0;
        }
    }
}
