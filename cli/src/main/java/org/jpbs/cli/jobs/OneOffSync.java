package org.jpbs.cli.jobs;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.UsageException;
import org.jpbs.datastore.jobs.JobConfig;
import org.jpbs.datastore.jobs.JobKind;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code jpbs pull} and {@code jpbs push}: one sync run now, without a {@code sync.cfg} entry, as
 * {@code proxmox-backup-manager pull|push} ({@code docs/sync.md#one-off-runs}). The options are the
 * sync job's PBS keys ({@code --remote R --remote-store S --store L [--ns ..] [--remote-ns ..]
 * [--max-depth N] [--group-filter F ...] [--remove-vanished true] [--transfer-last N] ...}; a repeated
 * {@code --group-filter} adds a filter, as PBS's array property); the run is
 * a task (worker type {@code syncjob}) whose log is printed; exit 1 if it failed.
 */
public abstract class OneOffSync extends JobCommands.Sub {
    @CommandLine.Unmatched
    List<String> raw;

    OneOffSync(CliContext ctx) {
        super(ctx);
    }

    abstract String direction();

    @Override
    JobKind kind() {
        return JobKind.SYNC;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        Map<String, String> props = properties(raw);
        if (props.containsKey("sync-direction") || props.containsKey("schedule")) {
            throw new UsageException("--sync-direction and --schedule are not options of jpbs " + direction());
        }
        for (String k : List.of("remote", "remote-store", "store")) {
            if (!props.containsKey(k)) {
                throw new UsageException("jpbs " + direction() + ": missing --" + k);
            }
        }
        props.put("sync-direction", direction());
        JobConfig c;
        try {
            c = new JobConfig(JobKind.SYNC, direction(), props);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), e);
        }
        return RunCommand.run(ctx, dir(), c);
    }

    /** {@code jpbs pull}. */
    @Command(name = "pull", description = {"Pull snapshots from a remote's datastore into a local one, now.",
        "  --remote NAME --remote-store STORE --store LOCAL",
        "  [--ns NS] [--remote-ns NS] [--max-depth N]",
        "  [--group-filter [include:|exclude:]type:|group:|regex:... (repeatable)]",
        "  [--remove-vanished true] [--transfer-last N] [--owner AUTHID]",
        "  [--encrypted-only true] [--verified-only true] [--resync-corrupt true]",
        "  [--rate-in SIZE] [--burst-in SIZE]   (see docs/sync.md)"})
    public static final class Pull extends OneOffSync {
        public Pull(CliContext ctx) {
            super(ctx);
        }

        @Override
        String direction() {
            return "pull";
        }
    }

    /** {@code jpbs push}. */
    @Command(name = "push", description = {"Push snapshots of a local datastore to a remote's datastore, now.",
        "  --remote NAME --remote-store STORE --store LOCAL",
        "  [--ns NS] [--remote-ns NS] [--max-depth N] [--group-filter ... (repeatable)]",
        "  [--remove-vanished true] [--transfer-last N]",
        "  [--encrypted-only true] [--verified-only true]",
        "  [--rate-out SIZE] [--burst-out SIZE]   (see docs/sync.md)"})
    public static final class Push extends OneOffSync {
        public Push(CliContext ctx) {
            super(ctx);
        }

        @Override
        String direction() {
            return "push";
        }
    }
}
