package org.jpbs.jobs.sync;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupType;

/**
 * One {@code group-filter} of a sync job, as PBS 3.x: {@code [include:|exclude:]type:<vm|ct|host>},
 * {@code ...group:<type>/<id>} or {@code ...regex:<regex>} (matched anywhere in {@code type/id}).
 * A list applies as PBS does ({@link #allows}): a group passes if there is no include filter or
 * it matches one, and it matches no exclude filter.
 *
 * @param exclude true for {@code exclude:}
 * @param kind    {@code type}, {@code group} or {@code regex}
 * @param value   the text after the kind
 */
public record GroupFilter(boolean exclude, String kind, String value, Pattern regex) {
    /**
     * Parses one filter.
     *
     * @throws IllegalArgumentException {@code group-filter: '<text>': <what is wrong>}
     */
    public static GroupFilter parse(String text) {
        String s = text.strip();
        boolean exclude = false;
        if (s.startsWith("exclude:")) {
            exclude = true;
            s = s.substring(8);
        } else if (s.startsWith("include:")) {
            s = s.substring(8);
        }
        int colon = s.indexOf(':');
        String kind = colon < 0 ? "" : s.substring(0, colon);
        String value = colon < 0 ? "" : s.substring(colon + 1);
        try {
            return switch (kind) {
                case "type" -> new GroupFilter(exclude, kind, BackupType.parse(value).text(), null);
                case "group" -> {
                    BackupGroupRef.parse(org.jpbs.core.api.BackupNamespace.ROOT, value);
                    yield new GroupFilter(exclude, kind, value, null);
                }
                case "regex" -> new GroupFilter(exclude, kind, value, Pattern.compile(value));
                default -> throw new IllegalArgumentException("not [include:|exclude:]type:|group:|regex:...");
            };
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("group-filter: '" + text + "': bad regular expression: "
                    + e.getDescription(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("group-filter: '" + text + "': " + e.getMessage(), e);
        }
    }

    /** Parses a list (the job's {@code group-filter} values, comma- or newline-separated). */
    public static List<GroupFilter> parseList(String text) {
        List<GroupFilter> out = new ArrayList<>();
        if (text == null) {
            return out;
        }
        for (String part : text.split("[,\\n]")) {
            if (!part.isBlank()) {
                out.add(parse(part));
            }
        }
        return out;
    }

    /** True if this filter matches the group (whatever include/exclude). */
    public boolean matches(BackupGroupRef g) {
        String typeId = g.type().text() + "/" + g.id();
        return switch (kind) {
            case "type" -> g.type().text().equals(value);
            case "group" -> typeId.equals(value);
            default -> regex.matcher(typeId).find();
        };
    }

    /** PBS's rule for a list: included (no include filter, or one matches) and not excluded. */
    public static boolean allows(List<GroupFilter> filters, BackupGroupRef g) {
        boolean anyInclude = filters.stream().anyMatch(f -> !f.exclude());
        boolean included = !anyInclude || filters.stream().anyMatch(f -> !f.exclude() && f.matches(g));
        return included && filters.stream().noneMatch(f -> f.exclude() && f.matches(g));
    }

    @Override
    public String toString() {
        return (exclude ? "exclude:" : "") + kind + ":" + value;
    }
}
