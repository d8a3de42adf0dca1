package org.jpbs.server.auth;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The PBS "section config" text syntax used by {@code user.cfg}, {@code datastore.cfg} and
 * friends (vectors {@code real-pbs/config/}, README there): a {@code type: id} line at column 0,
 * then one {@code key value} line per property indented with a TAB, a blank line between
 * sections. Lines starting with {@code #} are comments (dropped). Parsing then writing a file
 * that PBS wrote gives the same bytes. Stateless.
 */
public final class SectionConfig {
    private static final Pattern HEADER = Pattern.compile("([A-Za-z][A-Za-z0-9_-]*):\\s+(\\S+)\\s*");
    private static final Pattern PROPERTY = Pattern.compile("[ \\t]+([A-Za-z][A-Za-z0-9_-]*)(?:[ \\t]+(.*?))?\\s*");

    private SectionConfig() {}

    /**
     * One section, properties in file order.
     *
     * @param type  the section type, e.g. {@code user}, {@code token}
     * @param id    the section id, e.g. {@code root@pam}
     * @param props key to value (value may be empty); insertion ordered
     */
    public record Section(String type, String id, Map<String, String> props) {
        /** Copies the properties, keeping their order; validates that nothing contains a line break. */
        public Section {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(id, "id");
            checkLine("section type", type);
            checkLine("section id", id);
            Map<String, String> copy = new LinkedHashMap<>();
            props.forEach((k, v) -> {
                checkLine("property name", k);
                checkLine("value of '" + k + "'", v);
                copy.put(k, v);
            });
            props = Collections.unmodifiableMap(copy);
        }

        /** A property or null. */
        public String get(String key) {
            return props.get(key);
        }

        /** A copy with {@code key} set to {@code value} (removed if value is null), order kept. */
        public Section with(String key, String value) {
            Map<String, String> m = new LinkedHashMap<>(props);
            if (value == null) {
                m.remove(key);
            } else {
                m.put(key, value);
            }
            return new Section(type, id, m);
        }
    }

    private static void checkLine(String what, String s) {
        if (s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
            throw new IllegalArgumentException(what + " must not contain a line break");
        }
    }

    /**
     * Parses a whole file.
     *
     * @param resource file name for messages
     * @throws IllegalArgumentException {@code "<resource> line <n>: <what is wrong>"} on a line
     *                                  that is neither a header, a property nor blank, a property
     *                                  outside a section, a repeated property or a repeated
     *                                  {@code type: id}
     */
    public static List<Section> parse(String text, String resource) {
        List<Section> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        String type = null;
        String id = null;
        Map<String, String> props = null;
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.endsWith("\r")) {
                line = line.substring(0, line.length() - 1);
            }
            String where = resource + " line " + (i + 1) + ": ";
            if (line.isBlank()) {
                if (type != null) {
                    out.add(new Section(type, id, props));
                    type = null;
                }
                continue;
            }
            if (line.startsWith("#")) {
                continue;
            }
            if (line.charAt(0) == ' ' || line.charAt(0) == '\t') {
                if (type == null) {
                    throw new IllegalArgumentException(where + "property outside of a section");
                }
                Matcher m = PROPERTY.matcher(line);
                if (!m.matches()) {
                    throw new IllegalArgumentException(where + "expected '<key> <value>'");
                }
                String value = m.group(2) == null ? "" : m.group(2);
                if (props.putIfAbsent(m.group(1), value) != null) {
                    throw new IllegalArgumentException(where + "duplicate property '" + m.group(1) + "'");
                }
                continue;
            }
            Matcher m = HEADER.matcher(line);
            if (!m.matches()) {
                throw new IllegalArgumentException(where + "expected '<type>: <id>'");
            }
            if (type != null) {
                out.add(new Section(type, id, props));
            }
            type = m.group(1);
            id = m.group(2);
            props = new LinkedHashMap<>();
            if (!seen.add(type + ":" + id)) {
                throw new IllegalArgumentException(where + "duplicate section '" + type + ": " + id + "'");
            }
        }
        if (type != null) {
            out.add(new Section(type, id, props));
        }
        return out;
    }

    /** Writes sections the way PBS does: {@code type: id}, TAB-indented properties, a blank line between sections. */
    public static String write(List<Section> sections) {
        StringBuilder sb = new StringBuilder();
        for (Section s : sections) {
            if (!sb.isEmpty()) {
                sb.append('\n');
            }
            sb.append(s.type()).append(": ").append(s.id()).append('\n');
            s.props().forEach((k, v) -> {
                sb.append('\t').append(k);
                if (!v.isEmpty()) {
                    sb.append(' ').append(v);
                }
                sb.append('\n');
            });
        }
        return sb.toString();
    }
}
