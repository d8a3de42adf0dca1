package org.jpbs.datastore.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A PBS "section config" file kept line by line, so that parsing and writing it back gives the
 * same bytes — comments, blank lines, line endings, property order and unknown keys included
 * ({@code docs/datastore-config.md#datastorecfg}; vectors {@code real-pbs/config/}). Syntax: a
 * {@code type: id} header at column 0, then one {@code key value} line per property indented
 * with whitespace (PBS writes a TAB), a blank line after each section; lines whose first
 * non-blank character is {@code #} are comments.
 *
 * <p>Edits ({@link #withProperty}, {@link #withSection}, {@link #withoutSection}) return a new
 * document and touch only the lines concerned: a changed value rewrites its own line, a new
 * property goes before the first property whose key sorts after it (so a sorted section stays
 * sorted, as PBS writes them), a new section is appended after a blank line with its keys sorted.
 * Immutable and thread-safe.
 */
public final class SectionConfigText {
    private static final Pattern HEADER = Pattern.compile("([A-Za-z][A-Za-z0-9_-]*):[ \\t]+(\\S+)[ \\t]*");
    private static final Pattern PROPERTY = Pattern.compile("[ \\t]+([A-Za-z][A-Za-z0-9_-]*)(?:[ \\t]+(.*?))?[ \\t]*");
    private static final Pattern KEY = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*");
    private static final Pattern ID = Pattern.compile("\\S+");

    private final String resource;
    private final Set<String> repeatable; // keys that may appear more than once in a section (PBS array properties)
    private final List<String> lines; // each with its own line terminator (the last one may have none)
    private final List<Section> sections;
    private final List<int[]> spans; // per section: header line, last line of the section (inclusive)
    private final List<Map<String, Integer>> propLines; // per section: key -> line index

    /**
     * One section: its type, id and properties in file order.
     *
     * @param type  the section type, e.g. {@code datastore}
     * @param id    the section id, e.g. {@code store1}
     * @param props key to value (value may be empty), in file order; unmodifiable; for a
     *              repeated (array) key, its first value
     * @param lists every value of each key, in file order (one element for a key that is not
     *              repeated); unmodifiable
     */
    public record Section(String type, String id, Map<String, String> props, Map<String, List<String>> lists) {
        /** Copies the properties, keeping their order. */
        public Section {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(id, "id");
            props = Collections.unmodifiableMap(new LinkedHashMap<>(props));
            Map<String, List<String>> l = new LinkedHashMap<>();
            lists.forEach((k, v) -> l.put(k, List.copyOf(v)));
            props.forEach((k, v) -> l.putIfAbsent(k, List.of(v)));
            lists = Collections.unmodifiableMap(l);
        }

        /** A section whose keys each have one value. */
        public Section(String type, String id, Map<String, String> props) {
            this(type, id, props, Map.of());
        }

        /** Every value of {@code key} in file order (empty if absent): the items of a PBS array property. */
        public List<String> values(String key) {
            return lists.getOrDefault(key, List.of());
        }

        /** A property's value, or null if absent. */
        public String get(String key) {
            return props.get(key);
        }
    }

    private SectionConfigText(String resource, Set<String> repeatable, List<String> lines, List<Section> sections, List<int[]> spans,
                              List<Map<String, Integer>> propLines) {
        this.resource = resource;
        this.repeatable = repeatable;
        this.lines = lines;
        this.sections = sections;
        this.spans = spans;
        this.propLines = propLines;
    }

    /** An empty document. */
    public static SectionConfigText empty(String resource) {
        return parse("", resource);
    }

    /**
     * Parses a whole file.
     *
     * @param resource the file name, for messages
     * @throws IllegalArgumentException {@code "<resource> line <n>: <what is wrong>"} for a line
     *                                  that is neither header, property, comment nor blank, a
     *                                  property outside a section, a repeated property or a
     *                                  repeated {@code type: id}
     */
    public static SectionConfigText parse(String text, String resource) {
        return build(resource, Set.of(), splitLines(text));
    }

    /**
     * As {@link #parse(String, String)}, but the keys in {@code repeatable} may appear on several
     * lines of one section: PBS writes an array property (e.g. a notification matcher's
     * {@code target}) as one line per item ({@link Section#values}).
     */
    public static SectionConfigText parse(String text, String resource, Set<String> repeatable) {
        return build(resource, Set.copyOf(repeatable), splitLines(text));
    }

    private static List<String> splitLines(String text) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                out.add(text.substring(start, i + 1));
                start = i + 1;
            }
        }
        if (start < text.length()) {
            out.add(text.substring(start));
        }
        return out;
    }

    private static String content(String raw) {
        int end = raw.length();
        if (end > 0 && raw.charAt(end - 1) == '\n') {
            end--;
        }
        if (end > 0 && raw.charAt(end - 1) == '\r') {
            end--;
        }
        return raw.substring(0, end);
    }

    private static boolean isComment(String line) {
        return line.stripLeading().startsWith("#");
    }

    private static SectionConfigText build(String resource, Set<String> repeatable, List<String> lines) {
        List<Section> sections = new ArrayList<>();
        List<int[]> spans = new ArrayList<>();
        List<Map<String, Integer>> propLines = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        String type = null;
        String id = null;
        Map<String, String> props = null;
        Map<String, List<String>> lists = null;
        Map<String, Integer> where = null;
        int header = -1;
        int last = -1;
        for (int i = 0; i < lines.size(); i++) {
            String line = content(lines.get(i));
            String at = resource + " line " + (i + 1) + ": ";
            if (line.isBlank()) {
                if (type != null) {
                    sections.add(new Section(type, id, props, lists));
                    spans.add(new int[] {header, last});
                    propLines.add(where);
                    type = null;
                }
                continue;
            }
            if (isComment(line)) {
                continue; // belongs to no property; kept as it is
            }
            if (line.charAt(0) == ' ' || line.charAt(0) == '\t') {
                if (type == null) {
                    throw new IllegalArgumentException(at + "property outside of a section");
                }
                Matcher m = PROPERTY.matcher(line);
                if (!m.matches()) {
                    throw new IllegalArgumentException(at + "expected '<key> <value>'");
                }
                String value = m.group(2) == null ? "" : m.group(2);
                if (props.putIfAbsent(m.group(1), value) != null && !repeatable.contains(m.group(1))) {
                    throw new IllegalArgumentException(at + "duplicate property '" + m.group(1) + "'");
                }
                lists.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(value);
                where.putIfAbsent(m.group(1), i);
                last = i;
                continue;
            }
            Matcher m = HEADER.matcher(line);
            if (!m.matches()) {
                throw new IllegalArgumentException(at + "expected '<type>: <id>'");
            }
            if (type != null) {
                sections.add(new Section(type, id, props, lists));
                spans.add(new int[] {header, last});
                propLines.add(where);
            }
            type = m.group(1);
            id = m.group(2);
            if (!seen.add(type + ":" + id)) {
                throw new IllegalArgumentException(at + "duplicate section '" + type + ": " + id + "'");
            }
            props = new LinkedHashMap<>();
            lists = new LinkedHashMap<>();
            where = new LinkedHashMap<>();
            header = i;
            last = i;
        }
        if (type != null) {
            sections.add(new Section(type, id, props, lists));
            spans.add(new int[] {header, last});
            propLines.add(where);
        }
        return new SectionConfigText(resource, repeatable, List.copyOf(lines), List.copyOf(sections), spans, propLines);
    }

    /** The file text, byte for byte as parsed (plus any edits). */
    public String text() {
        StringBuilder sb = new StringBuilder();
        lines.forEach(sb::append);
        return sb.toString();
    }

    /** SHA-256 of the text as 64 lower-case hex digits (the PBS config {@code digest}). */
    public String digest() {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(text().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Decodes a config file's bytes (strict UTF-8).
     *
     * @throws java.io.IOException {@code "<file>: not valid UTF-8"}
     */
    public static String decode(byte[] data, Object file) throws java.io.IOException {
        try {
            return java.nio.charset.StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(data)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new java.io.IOException(file + ": not valid UTF-8", e);
        }
    }

    /** The resource name given to {@link #parse}. */
    public String resource() {
        return resource;
    }

    /** All sections in file order. */
    public List<Section> sections() {
        return sections;
    }

    /** The section {@code type: id}, if present. */
    public Optional<Section> section(String type, String id) {
        int i = indexOf(type, id);
        return i < 0 ? Optional.empty() : Optional.of(sections.get(i));
    }

    /**
     * Refuses what PBS's section-config parser refuses: a section whose type {@code types} does
     * not accept ({@code "<resource>: unknown section type 'x'"}), or a property its type does
     * not have ({@code "<resource> line N: unknown property 'k' in section 'type: id'"}).
     *
     * @param keys whether a section type has a key
     * @throws IllegalArgumentException for the first unknown type or property
     */
    public void requireKnown(java.util.function.Predicate<String> types, java.util.function.BiPredicate<String, String> keys) {
        for (Section sec : sections) {
            if (!types.test(sec.type())) {
                throw new IllegalArgumentException(resource + ": unknown section type '" + sec.type() + "'");
            }
            for (String key : sec.lists().keySet()) {
                if (!keys.test(sec.type(), key)) {
                    throw new IllegalArgumentException(resource + " line " + line(sec.type(), sec.id(), key)
                            + ": unknown property '" + key + "' in section '" + sec.type() + ": " + sec.id() + "'");
                }
            }
        }
    }

    /** The 1-based line of a section's property (an array property's first line), or 0 if absent: for messages. */
    public int line(String type, String id, String key) {
        int i = indexOf(type, id);
        Integer l = i < 0 ? null : propLines.get(i).get(key);
        return l == null ? 0 : l + 1;
    }

    private int indexOf(String type, String id) {
        for (int i = 0; i < sections.size(); i++) {
            Section s = sections.get(i);
            if (s.type().equals(type) && s.id().equals(id)) {
                return i;
            }
        }
        return -1;
    }

    private static void checkValue(String key, String value) {
        if (!KEY.matcher(key).matches()) {
            throw new IllegalArgumentException("invalid property name '" + key + "'");
        }
        if (value != null && (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0)) {
            throw new IllegalArgumentException("value of '" + key + "' must not contain a line break");
        }
        if (value != null && !value.equals(value.strip())) {
            throw new IllegalArgumentException("value of '" + key + "' must not start or end with white space");
        }
    }

    private static String propertyLine(String key, String value) {
        return value.isEmpty() ? "\t" + key + "\n" : "\t" + key + " " + value + "\n";
    }

    /**
     * Sets ({@code value} non-null) or removes ({@code value} null) one property of an existing
     * section. An unchanged value returns this document.
     *
     * @throws IllegalArgumentException if the section does not exist, the key is not a valid
     *                                  name or the value contains a line break or surrounding blanks
     */
    public SectionConfigText withProperty(String type, String id, String key, String value) {
        checkValue(key, value);
        int s = indexOf(type, id);
        if (s < 0) {
            throw new IllegalArgumentException("no section '" + type + ": " + id + "' in " + resource);
        }
        String old = sections.get(s).get(key);
        if (Objects.equals(old, value)) {
            return this;
        }
        List<String> out = new ArrayList<>(lines);
        Integer at = propLines.get(s).get(key);
        if (at != null) {
            if (value == null) {
                out.remove((int) at);
            } else {
                out.set(at, indentOf(lines.get(at)) + key + (value.isEmpty() ? "" : " " + value) + eol(lines.get(at)));
            }
        } else {
            int insertAt = spans.get(s)[1] + 1;
            for (Map.Entry<String, Integer> e : propLines.get(s).entrySet()) {
                if (e.getKey().compareTo(key) > 0) {
                    insertAt = e.getValue();
                    break;
                }
            }
            ensureTerminated(out, insertAt - 1);
            out.add(insertAt, propertyLine(key, value));
        }
        return build(resource, repeatable, out);
    }

    /**
     * Replaces every line of an array property of an existing section by one line per item
     * ({@code values} empty: removes the key); the first item goes where {@link #withProperty}
     * puts a key, the others right below it.
     *
     * @throws IllegalArgumentException as {@link #withProperty}
     */
    public SectionConfigText withPropertyValues(String type, String id, String key, List<String> values) {
        values.forEach(v -> checkValue(key, Objects.requireNonNull(v, key)));
        int s = indexOf(type, id);
        if (s < 0) {
            throw new IllegalArgumentException("no section '" + type + ": " + id + "' in " + resource);
        }
        if (sections.get(s).values(key).equals(values)) {
            return this;
        }
        SectionConfigText t = this;
        while (t.sections.get(s).get(key) != null) {
            t = t.withProperty(type, id, key, null); // one line at a time: the first one left
        }
        if (values.isEmpty()) {
            return t;
        }
        t = t.withProperty(type, id, key, values.getFirst());
        List<String> out = new ArrayList<>(t.lines);
        int at = t.propLines.get(s).get(key);
        ensureTerminated(out, at);
        for (int i = 1; i < values.size(); i++) {
            out.add(at + i, propertyLine(key, values.get(i)));
        }
        return build(resource, repeatable, out);
    }

    private static String indentOf(String raw) {
        int i = 0;
        while (i < raw.length() && (raw.charAt(i) == ' ' || raw.charAt(i) == '\t')) {
            i++;
        }
        return raw.substring(0, i);
    }

    private static String eol(String raw) {
        return raw.endsWith("\r\n") ? "\r\n" : raw.endsWith("\n") ? "\n" : "";
    }

    private static void ensureTerminated(List<String> out, int index) {
        if (index >= 0 && index < out.size() && !out.get(index).endsWith("\n")) {
            out.set(index, out.get(index) + "\n");
        }
    }

    /**
     * Appends a new section (after a blank line), its properties sorted by key as PBS writes them.
     *
     * @throws IllegalArgumentException if it exists already or a name or value is invalid
     */
    public SectionConfigText withSection(String type, String id, Map<String, String> props) {
        if (!KEY.matcher(type).matches() || !ID.matcher(id).matches()) {
            throw new IllegalArgumentException("invalid section '" + type + ": " + id + "'");
        }
        if (indexOf(type, id) >= 0) {
            throw new IllegalArgumentException("section '" + type + ": " + id + "' already exists in " + resource);
        }
        List<String> out = new ArrayList<>(lines);
        ensureTerminated(out, out.size() - 1);
        if (!out.isEmpty() && !content(out.getLast()).isBlank()) {
            out.add("\n");
        }
        out.add(type + ": " + id + "\n");
        new java.util.TreeMap<>(props).forEach((k, v) -> {
            checkValue(k, Objects.requireNonNull(v, k));
            out.add(propertyLine(k, v));
        });
        return build(resource, repeatable, out);
    }

    /**
     * Appends a new section whose keys may carry several values (an array property is written
     * as one line per item, in the given order), keys sorted as PBS writes them.
     *
     * @throws IllegalArgumentException if it exists already or a name or value is invalid
     */
    public SectionConfigText withSectionValues(String type, String id, Map<String, List<String>> props) {
        SectionConfigText t = withSection(type, id, Map.of());
        List<String> out = new ArrayList<>(t.lines);
        new java.util.TreeMap<>(props).forEach((k, vs) -> vs.forEach(v -> {
            checkValue(k, Objects.requireNonNull(v, k));
            out.add(propertyLine(k, v));
        }));
        return build(resource, repeatable, out);
    }

    /**
     * Removes a section: its header, its property and comment lines, the comment lines directly
     * above its header, and one blank separator line.
     *
     * @throws IllegalArgumentException if it does not exist
     */
    public SectionConfigText withoutSection(String type, String id) {
        int s = indexOf(type, id);
        if (s < 0) {
            throw new IllegalArgumentException("no section '" + type + ": " + id + "' in " + resource);
        }
        int from = spans.get(s)[0];
        int to = spans.get(s)[1];
        while (from > 0 && isComment(content(lines.get(from - 1))) && !content(lines.get(from - 1)).isBlank()) {
            from--;
        }
        if (to + 1 < lines.size() && content(lines.get(to + 1)).isBlank()) {
            to++;
        } else if (from > 0 && content(lines.get(from - 1)).isBlank()) {
            from--;
        }
        List<String> out = new ArrayList<>(lines.subList(0, from));
        out.addAll(lines.subList(to + 1, lines.size()));
        return build(resource, repeatable, out);
    }
}
