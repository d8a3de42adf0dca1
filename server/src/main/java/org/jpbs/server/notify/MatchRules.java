package org.jpbs.server.notify;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The rules of one {@code matcher:} section ({@code docs/notifications.md#matchers}):
 * {@code match-severity} (comma-separated severities), {@code match-field}
 * ({@code exact:key=v1,v2} or {@code regex:key=pattern}; a notification without the field does
 * not match), {@code match-calendar} ({@code [weekdays] [H[:MM][-H[:MM]]]}, e.g.
 * {@code mon-fri 9:00-17:00}, in the server's time zone), combined by {@code mode} {@code all}
 * (default) or {@code any} and negated by {@code invert-match}. A matcher without rules matches
 * everything. Immutable.
 */
public final class MatchRules {
    private static final List<String> DAYS = List.of("mon", "tue", "wed", "thu", "fri", "sat", "sun");
    private static final Pattern TIME = Pattern.compile("(\\d{1,2})(?::(\\d{2}))?");

    private final List<Predicate<Notification>> rules;
    private final boolean any;
    private final boolean invert;

    private MatchRules(List<Predicate<Notification>> rules, boolean any, boolean invert) {
        this.rules = rules;
        this.any = any;
        this.invert = invert;
    }

    /**
     * The rules of a matcher entry.
     *
     * @param zone time zone of {@code match-calendar}
     * @throws IllegalArgumentException naming the matcher and the bad rule
     */
    public static MatchRules of(NotificationConfig.Entry m, ZoneId zone) {
        List<Predicate<Notification>> rules = new ArrayList<>();
        try {
            for (String s : m.values("match-severity")) {
                Set<Severity> set = EnumSet.noneOf(Severity.class);
                for (String p : s.split(",")) {
                    set.add(Severity.parse(p.strip()));
                }
                rules.add(n -> set.contains(n.severity()));
            }
            for (String f : m.values("match-field")) {
                rules.add(field(f));
            }
            for (String c : m.values("match-calendar")) {
                rules.add(calendar(c, zone));
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("matcher '" + m.name() + "': " + e.getMessage(), e);
        }
        String mode = m.get("mode") == null ? "all" : m.get("mode");
        if (!mode.equals("all") && !mode.equals("any")) {
            throw new IllegalArgumentException("matcher '" + m.name() + "': mode must be 'all' or 'any', not '" + mode + "'");
        }
        String inv = m.get("invert-match");
        boolean invert = inv != null && (inv.equals("1") || inv.equalsIgnoreCase("true"));
        return new MatchRules(List.copyOf(rules), mode.equals("any"), invert);
    }

    /** True if the notification matches (after {@code invert-match}). */
    public boolean matches(Notification n) {
        boolean r;
        if (rules.isEmpty()) {
            r = true;
        } else if (any) {
            r = rules.stream().anyMatch(p -> p.test(n));
        } else {
            r = rules.stream().allMatch(p -> p.test(n));
        }
        return r != invert;
    }

    static Predicate<Notification> field(String spec) {
        boolean regex = spec.startsWith("regex:");
        String body = regex ? spec.substring(6) : spec.startsWith("exact:") ? spec.substring(6) : spec;
        int eq = body.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("invalid match-field '" + spec + "' (expected exact:KEY=VALUE[,VALUE...] or regex:KEY=PATTERN)");
        }
        String key = body.substring(0, eq);
        String value = body.substring(eq + 1);
        if (regex) {
            Pattern p;
            try {
                p = Pattern.compile(value);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("invalid regex in match-field '" + spec + "': " + e.getDescription(), e);
            }
            return n -> n.fields().containsKey(key) && p.matcher(n.fields().get(key)).find();
        }
        Set<String> values = Set.of(value.split(","));
        return n -> n.fields().containsKey(key) && values.contains(n.fields().get(key));
    }

    static Predicate<Notification> calendar(String spec, ZoneId zone) {
        Set<DayOfWeek> days = EnumSet.allOf(DayOfWeek.class);
        int from = 0;
        int to = 24 * 60;
        for (String tok : spec.strip().split("\\s+")) {
            if (tok.isEmpty()) {
                continue;
            }
            if (Character.isLetter(tok.charAt(0))) {
                days = days(tok, spec);
            } else {
                String[] r = tok.split("-", 2);
                from = minutes(r[0], spec);
                to = r.length == 2 ? minutes(r[1], spec) : from + 59;
            }
        }
        Set<DayOfWeek> d = days;
        int f = from;
        int t = to;
        return n -> {
            ZonedDateTime z = Instant.ofEpochSecond(n.timestamp()).atZone(zone);
            int m = z.getHour() * 60 + z.getMinute();
            return d.contains(z.getDayOfWeek()) && m >= f && m <= t;
        };
    }

    private static Set<DayOfWeek> days(String tok, String spec) {
        Set<DayOfWeek> out = EnumSet.noneOf(DayOfWeek.class);
        for (String part : tok.toLowerCase(Locale.ROOT).split(",")) {
            String[] r = part.split("-|\\.\\.", 2);
            int a = day(r[0], spec);
            int b = r.length == 2 ? day(r[1], spec) : a;
            for (int i = a; ; i = (i + 1) % 7) {
                out.add(DayOfWeek.of(i + 1));
                if (i == b) {
                    break;
                }
            }
        }
        return out;
    }

    private static int day(String s, String spec) {
        int i = DAYS.indexOf(s.length() >= 3 ? s.substring(0, 3) : s);
        if (i < 0) {
            throw new IllegalArgumentException("invalid weekday '" + s + "' in match-calendar '" + spec + "'");
        }
        return i;
    }

    private static int minutes(String s, String spec) {
        var m = TIME.matcher(s);
        if (!m.matches() || Integer.parseInt(m.group(1)) > 24 || (m.group(2) != null && Integer.parseInt(m.group(2)) > 59)) {
            throw new IllegalArgumentException("invalid time '" + s + "' in match-calendar '" + spec + "'");
        }
        return Integer.parseInt(m.group(1)) * 60 + (m.group(2) == null ? 0 : Integer.parseInt(m.group(2)));
    }
}
