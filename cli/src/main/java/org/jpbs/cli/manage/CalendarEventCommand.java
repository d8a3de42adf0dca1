package org.jpbs.cli.manage;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.UsageException;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.core.calendar.CalendarEvent;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs calendar-event EXPR [--iterations N]}: checks a calendar event and prints its next
 * runs in the layout of {@code systemd-analyze calendar} (original and normalized form, next
 * elapse, the time in UTC when the server's zone is not UTC, time from now, then
 * {@code Iter. #2} ...); {@code docs/jobs.md#calendar-events}. A bad expression is a usage error
 * (exit 2) naming it.
 */
@Command(name = "calendar-event", description = {"Check a calendar event (schedule) and show its next runs.",
    "Times are in the server's time zone (TZ) unless the event ends with UTC."})
public final class CalendarEventCommand implements Callable<Integer> {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "EXPR", description = "Calendar event, e.g. 'mon..fri 02:00' or '*:0/15'.")
    String expression;

    @Option(names = "--iterations", paramLabel = "N", defaultValue = "1", description = "How many runs to show (default 1).")
    int iterations;

    @Option(names = "--base-time", paramLabel = "TIME",
            description = "Compute the runs after TIME (ISO-8601, e.g. 2026-12-02T02:18:00Z) instead of now.")
    String baseTime;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public CalendarEventCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        if (iterations < 1 || iterations > 1000) {
            throw new UsageException("--iterations: " + iterations + " is not between 1 and 1000");
        }
        CalendarEvent event;
        try {
            event = CalendarEvent.parse(expression);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), e);
        }
        Instant now = baseTime == null ? Instant.now() : parseBase(baseTime);
        ZoneId zone = zone();
        boolean utcZone = zone.getRules().isFixedOffset() && zone.getRules().getOffset(now).equals(ZoneOffset.UTC);
        List<Instant> runs = event.iterations(now, zone, iterations);
        line("Original form", expression);
        line("Normalized form", event.normalized());
        if (runs.isEmpty()) {
            line("Next elapse", "never");
            return 0;
        }
        ZoneId shown = event.utc() ? ZoneOffset.UTC : zone;
        for (int i = 0; i < runs.size(); i++) {
            Instant t = runs.get(i);
            line(i == 0 ? "Next elapse" : "Iter. #" + (i + 1), format(t, shown));
            if (!utcZone && !event.utc()) {
                line("(in UTC)", format(t, ZoneOffset.UTC));
            }
            line("From now", relative(Duration.between(now, t)));
        }
        return 0;
    }

    private ZoneId zone() {
        String tz = ctx.getenv("TZ");
        if (tz != null && !tz.isBlank()) {
            try {
                return ZoneId.of(tz.startsWith(":") ? tz.substring(1) : tz);
            } catch (RuntimeException e) {
                throw new UsageException("TZ: '" + tz + "' is not a time zone", e);
            }
        }
        return ZoneId.systemDefault();
    }

    private static Instant parseBase(String s) {
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            try {
                return ZonedDateTime.parse(s).toInstant();
            } catch (DateTimeParseException e2) {
                throw new UsageException("--base-time: '" + s + "' is not an ISO-8601 time (e.g. 2026-12-02T02:18:00Z)", e2);
            }
        }
    }

    private void line(String label, String value) {
        ctx.out().printf("%15s: %s%n", label, value);
    }

    private static String format(Instant t, ZoneId zone) {
        ZonedDateTime z = t.atZone(zone);
        String abbrev = zone.equals(ZoneOffset.UTC) ? "UTC"
                : z.format(DateTimeFormatter.ofPattern("zzz", Locale.US));
        return CalendarEvent.dayName(z.getDayOfWeek()) + " " + z.format(TIME) + " " + abbrev;
    }

    /** systemd's relative timestamp ("23h left", "1 day 23h left", "2 weeks 1 day left", ...). */
    static String relative(Duration d) {
        long s = d.getSeconds();
        long min = 60;
        long hour = 3600;
        long day = 86400;
        long week = 7 * day;
        long month = 2629800;
        long year = 31557600;
        String r;
        if (s >= year) {
            r = plural(s / year, "year") + " " + plural((s % year) / month, "month");
        } else if (s >= month) {
            r = plural(s / month, "month") + " " + plural((s % month) / day, "day");
        } else if (s >= week) {
            r = plural(s / week, "week") + " " + plural((s % week) / day, "day");
        } else if (s >= 2 * day) {
            r = s / day + " days";
        } else if (s >= 25 * hour) {
            r = "1 day " + (s - day) / hour + "h";
        } else if (s >= 6 * hour) {
            r = s / hour + "h";
        } else if (s >= hour) {
            r = s / hour + "h " + (s % hour) / min + "min";
        } else if (s >= 5 * min) {
            r = s / min + "min";
        } else if (s >= min) {
            r = s / min + "min " + s % min + "s";
        } else if (s > 0) {
            r = s + "s";
        } else {
            return "now";
        }
        return r + " left";
    }

    private static String plural(long n, String unit) {
        return n + " " + unit + (n == 1 ? "" : "s");
    }
}
