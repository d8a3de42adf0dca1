package org.jpbs.cli.admin;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.UsageException;
import org.jpbs.core.errors.AlreadyExistsException;
import org.jpbs.core.errors.NotFoundException;
import org.jpbs.datastore.task.TaskManager;
import org.jpbs.server.notify.NotificationConfig;
import org.jpbs.server.notify.NotificationEdits;
import org.jpbs.server.notify.NotificationStore;
import org.jpbs.server.notify.Notifier;
import org.jpbs.server.notify.ParameterException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs notification}: notification targets and matchers in the config directory's
 * {@code notifications.cfg}/{@code notifications-priv.cfg} ({@code docs/notifications.md#api-and-commands}),
 * named as {@code proxmox-backup-manager notification}: {@code endpoint TYPE
 * list|show|create|update|remove [NAME] [--KEY VALUE...]} (TYPE sendmail, smtp, gotify,
 * webhook), {@code matcher list|show|create|update|remove [NAME] [...]}, {@code target list},
 * {@code target test NAME}. A running {@code jpbs serve} sees changes at its next notification.
 */
@Command(name = "notification", mixinStandardHelpOptions = true,
        description = "Manage notification targets and matchers (notifications.cfg).",
        subcommands = {NotificationCommand.Endpoint.class, NotificationCommand.Matcher.class,
            NotificationCommand.Target.class})
public final class NotificationCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    /** {@code jpbs notification endpoint TYPE ACTION [NAME]}. */
    @Command(name = "endpoint", mixinStandardHelpOptions = true,
            description = {"Manage notification endpoints of one TYPE (sendmail, smtp, gotify, webhook).",
                "ACTION is list, show, create, update or remove."})
    public static final class Endpoint implements Callable<Integer> {
        private final CliContext ctx;
        @Parameters(index = "0", paramLabel = "TYPE", description = "sendmail, smtp, gotify or webhook.")
        String type;
        @Parameters(index = "1", paramLabel = "ACTION", description = "list, show, create, update or remove.")
        String action;
        @Parameters(index = "2", arity = "0..1", paramLabel = "NAME", description = "Endpoint name.")
        String name;
        @Mixin
        NotificationOptions options;
        @Mixin
        ConfigDirOption config;

        public Endpoint(CliContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() throws IOException {
            if (!List.of("sendmail", "smtp", "gotify", "webhook").contains(type)) {
                throw new UsageException("TYPE must be sendmail, smtp, gotify or webhook, not '" + type + "'");
            }
            return run(ctx, config.resolve(ctx), type, action, name, options);
        }
    }

    /** {@code jpbs notification matcher ACTION [NAME]}. */
    @Command(name = "matcher", mixinStandardHelpOptions = true,
            description = "Manage notification matchers: ACTION is list, show, create, update or remove.")
    public static final class Matcher implements Callable<Integer> {
        private final CliContext ctx;
        @Parameters(index = "0", paramLabel = "ACTION", description = "list, show, create, update or remove.")
        String action;
        @Parameters(index = "1", arity = "0..1", paramLabel = "NAME", description = "Matcher name.")
        String name;
        @Mixin
        NotificationOptions options;
        @Mixin
        ConfigDirOption config;

        public Matcher(CliContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() throws IOException {
            return run(ctx, config.resolve(ctx), "matcher", action, name, options);
        }
    }

    /** {@code jpbs notification target list|test NAME}. */
    @Command(name = "target", mixinStandardHelpOptions = true,
            description = "List all notification targets, or send a test notification to one (test NAME).")
    public static final class Target implements Callable<Integer> {
        private final CliContext ctx;
        @Parameters(index = "0", paramLabel = "ACTION", description = "list or test.")
        String action;
        @Parameters(index = "1", arity = "0..1", paramLabel = "NAME", description = "Target name (for test).")
        String name;
        @Mixin
        ConfigDirOption config;

        public Target(CliContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() throws IOException {
            Path dir = config.resolve(ctx);
            switch (action) {
                case "list" -> {
                    for (NotificationConfig.Entry e : NotificationConfig.load(dir).targets()) {
                        ctx.out().printf("%-20s %-9s %-16s %s%s%n", e.name(), e.type(), e.origin(),
                                e.disabled() ? "(disabled) " : "", e.get("comment") == null ? "" : e.get("comment"));
                    }
                }
                case "test" -> {
                    if (name == null) {
                        throw new UsageException("target test needs NAME");
                    }
                    try {
                        new Notifier(dir, TaskManager.localNodeName()).test(name);
                    } catch (NotificationEdits.NoSuchEntryException e) {
                        throw new NotFoundException(null, e.getMessage());
                    } catch (IOException e) {
                        throw new IOException("could not notify via target '" + name + "': " + e.getMessage(), e);
                    }
                    ctx.out().println("test notification sent via target '" + name + "'");
                }
                default -> throw new UsageException("ACTION must be list or test, not '" + action + "'");
            }
            ctx.out().flush();
            return 0;
        }
    }

    /**
     * Runs one action; the edits' errors become the command line's: a bad or missing option a
     * usage error naming it ({@code --method: parameter is missing and it is not optional.},
     * exit 2), a missing entry "not found" (exit 3), a taken name "exists" (exit 4).
     */
    static int run(CliContext ctx, Path dir, String type, String action, String name, NotificationOptions o)
            throws IOException {
        if (!action.equals("list") && name == null) {
            throw new UsageException(action + " needs NAME");
        }
        try {
            act(ctx, dir, type, action, name, o);
        } catch (ParameterException e) {
            throw new UsageException((e.key().equals("name") ? "NAME" : "--" + e.key()) + ": " + e.reason(), e);
        } catch (NotificationEdits.NoSuchEntryException e) {
            throw new NotFoundException(null, e.getMessage());
        } catch (NotificationEdits.EntryExistsException e) {
            throw new AlreadyExistsException(null, e.getMessage());
        }
        ctx.out().flush();
        return 0;
    }

    private static void act(CliContext ctx, Path dir, String type, String action, String name, NotificationOptions o)
            throws IOException {
        switch (action) {
            case "list" -> {
                NotificationConfig cfg = NotificationConfig.load(dir);
                List<NotificationConfig.Entry> all = type.equals("matcher") ? cfg.matchers() : cfg.targets();
                List<Map<String, Object>> out = all.stream().filter(e -> e.type().equals(type)).map(NotificationEdits::view)
                        .toList();
                ctx.out().println(JSON.writeValueAsString(out));
            }
            case "show" -> ctx.out().println(JSON.writeValueAsString(
                    NotificationEdits.view(NotificationEdits.existing(NotificationConfig.load(dir), type, name))));
            case "create" -> NotificationStore.update(dir, c -> NotificationEdits.create(c, type, name, o.properties()));
            case "update" -> NotificationStore.update(dir, c -> NotificationEdits.update(c, type, name, o.properties(),
                    o.delete()));
            case "remove" -> NotificationStore.update(dir, c -> NotificationEdits.remove(c, type, name));
            default -> throw new UsageException("ACTION must be list, show, create, update or remove, not '" + action + "'");
        }
    }
}
