package org.jpbs.server.notify;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Routes notifications to targets ({@code docs/notifications.md}): reads
 * {@code notifications.cfg}/{@code notifications-priv.cfg} of the config directory at every
 * notification (so changes apply at once), finds the enabled matchers that match, and sends to
 * each of their enabled targets once, each on its own virtual thread. A failing target (down,
 * refusing, misconfigured) is logged ({@code could not notify via target 'x': ...}) and does not
 * affect the others nor the task that caused the notification. Thread-safe.
 */
public final class Notifier implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Notifier.class.getName());

    private final Path configDir;
    private final String node;
    private final ZoneId zone;
    private final ExecutorService senders = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("jpbs-notify-", 0).factory());
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    /**
     * @param configDir where the notification files are
     * @param node      this server's host name (the {@code hostname} field, default sender domain)
     */
    public Notifier(Path configDir, String node) {
        this(configDir, node, ZoneId.systemDefault());
    }

    Notifier(Path configDir, String node, ZoneId zone) {
        this.configDir = configDir;
        this.node = node;
        this.zone = zone;
    }

    /** This server's node name. */
    public String node() {
        return node;
    }

    /** The config directory. */
    public Path configDir() {
        return configDir;
    }

    /**
     * Sends {@code n} to the targets of every matching matcher, in the background.
     *
     * @return the names of the targets it goes to (empty if no matcher matched or the config is broken)
     */
    public List<String> notify(Notification n) {
        List<NotificationConfig.Entry> targets;
        try {
            targets = route(NotificationConfig.load(configDir), n);
        } catch (IOException | IllegalArgumentException e) {
            LOG.log(Level.ERROR, "notification '" + n.title() + "' not sent: " + e.getMessage());
            return List.of();
        }
        for (NotificationConfig.Entry t : targets) {
            senders.execute(() -> {
                try {
                    send(t, n);
                    sent.incrementAndGet();
                } catch (MailSender.NoRecipientsException e) {
                    LOG.log(Level.INFO, "notification target '" + t.name() + "': " + e.getMessage() + ", nothing sent");
                } catch (IOException | RuntimeException | LinkageError e) {
                    failed.incrementAndGet();
                    LOG.log(Level.ERROR, "could not notify via target '" + t.name() + "': " + e.getMessage());
                }
            });
        }
        return targets.stream().map(NotificationConfig.Entry::name).toList();
    }

    /** The enabled targets of the enabled matchers that match {@code n}, each once. */
    List<NotificationConfig.Entry> route(NotificationConfig cfg, Notification n) {
        Set<String> names = new LinkedHashSet<>();
        for (NotificationConfig.Entry m : cfg.matchers()) {
            if (m.disabled()) {
                continue;
            }
            try {
                if (MatchRules.of(m, zone).matches(n)) {
                    m.values("target").forEach(v -> names.addAll(List.of(v.split(","))));
                }
            } catch (IllegalArgumentException e) {
                LOG.log(Level.ERROR, "notification matcher skipped: " + e.getMessage());
            }
        }
        List<NotificationConfig.Entry> out = new ArrayList<>();
        for (String name : names) {
            Optional<NotificationConfig.Entry> t = cfg.target(name.strip());
            if (t.isEmpty()) {
                LOG.log(Level.WARNING, "notification target '" + name + "' does not exist");
            } else if (!t.get().disabled()) {
                out.add(t.get());
            }
        }
        return out;
    }

    /**
     * Sends a test notification to one target now ({@code notification target test}).
     *
     * @throws IOException              the sending error (secrets masked)
     * @throws NotificationEdits.NoSuchEntryException {@code "endpoint '<name>' does not exist"} (PBS's text)
     * @throws IllegalArgumentException                if the files do not parse
     */
    public void test(String target) throws IOException {
        NotificationConfig.Entry t = NotificationConfig.load(configDir).target(target)
                .orElseThrow(() -> new NotificationEdits.NoSuchEntryException("endpoint '" + target + "' does not exist"));
        send(t, new Notification(Severity.INFO, "Test notification",
                "This is a test of the notification target '" + target + "'.",
                Map.of("hostname", node, "type", "test"), System.currentTimeMillis() / 1000));
    }

    private void send(NotificationConfig.Entry t, Notification n) throws IOException {
        switch (t.type()) {
            case "sendmail", "smtp" -> MailSender.send(t, n, configDir, node);
            case "webhook" -> HttpSender.webhook(t, n);
            case "gotify" -> HttpSender.gotify(t, n);
            default -> throw new IOException("unknown target type '" + t.type() + "'");
        }
    }

    /** Notifications handed to a target successfully so far. */
    public long sentCount() {
        return sent.get();
    }

    /** Target sends that failed so far. */
    public long failedCount() {
        return failed.get();
    }

    /** Waits up to 30 s for the sends in flight and stops. */
    @Override
    public void close() {
        senders.shutdown();
        try {
            senders.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
