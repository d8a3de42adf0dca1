package org.jpbs.server;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict parser of the Prometheus text exposition format 0.0.4 (tests only): {@code # HELP}
 * and {@code # TYPE} lines, samples {@code name{label="value",...} value [timestamp]} with
 * escaped label values; every sample must belong to the family of the last {@code # TYPE}
 * (the family name itself, or with {@code _count}/{@code _sum}/{@code _bucket} for a summary or
 * histogram), a family is typed once, a sample (name and labels) appears once. Any other line
 * is an error naming its number.
 */
public final class PrometheusText {
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern TYPE = Pattern.compile("# TYPE (" + NAME.pattern() + ") (counter|gauge|summary|histogram|untyped)");
    private static final Pattern HELP = Pattern.compile("# HELP (" + NAME.pattern() + ") (.*)");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\\\n]|\\\\[\\\\\"n])*)\"");
    private static final Pattern VALUE = Pattern.compile("[-+]?(?:\\d+(?:\\.\\d*)?(?:[eE][-+]?\\d+)?|\\.\\d+(?:[eE][-+]?\\d+)?|Inf|NaN)");

    /** The samples: {@code name{l1="v1",l2="v2"}} (labels sorted) to value, and the family types. */
    public record Exposition(Map<String, Double> samples, Map<String, String> types) {
        /** A sample's value, or null. */
        public Double get(String name, String... labels) {
            Map<String, String> l = new TreeMap<>();
            for (int i = 0; i < labels.length; i += 2) {
                l.put(labels[i], labels[i + 1]);
            }
            return samples.get(key(name, l));
        }

        /** A sample's value, or 0 if absent (a counter not yet created). */
        public double count(String name, String... labels) {
            Double d = get(name, labels);
            return d == null ? 0 : d;
        }
    }

    private PrometheusText() {}

    public static Exposition parse(String text) {
        Map<String, Double> samples = new LinkedHashMap<>();
        Map<String, String> types = new LinkedHashMap<>();
        String family = null;
        String[] lines = text.split("\n", -1);
        if (!text.endsWith("\n")) {
            throw new IllegalArgumentException("exposition does not end with a newline");
        }
        for (int i = 0; i < lines.length - 1; i++) {
            String line = lines[i];
            String at = "line " + (i + 1) + " '" + line + "': ";
            if (line.startsWith("#")) {
                Matcher t = TYPE.matcher(line);
                if (t.matches()) {
                    if (types.put(t.group(1), t.group(2)) != null) {
                        throw new IllegalArgumentException(at + "family typed twice");
                    }
                    family = t.group(1);
                } else if (!HELP.matcher(line).matches()) {
                    throw new IllegalArgumentException(at + "neither # HELP nor # TYPE");
                }
                continue;
            }
            if (line.isEmpty()) {
                throw new IllegalArgumentException(at + "empty line");
            }
            Matcher n = NAME.matcher(line);
            if (!n.lookingAt()) {
                throw new IllegalArgumentException(at + "no metric name");
            }
            String name = n.group();
            int pos = n.end();
            Map<String, String> labels = new TreeMap<>();
            if (pos < line.length() && line.charAt(pos) == '{') {
                pos++;
                while (line.charAt(pos) != '}') {
                    Matcher l = LABEL.matcher(line).region(pos, line.length());
                    if (!l.lookingAt()) {
                        throw new IllegalArgumentException(at + "bad label at column " + pos);
                    }
                    if (labels.put(l.group(1), unescape(l.group(2))) != null) {
                        throw new IllegalArgumentException(at + "label repeated");
                    }
                    pos = l.end();
                    if (line.charAt(pos) == ',') {
                        pos++;
                    } else if (line.charAt(pos) != '}') {
                        throw new IllegalArgumentException(at + "expected ',' or '}' at column " + pos);
                    }
                }
                pos++;
            }
            String[] rest = line.substring(pos).split(" ", -1);
            if (rest.length < 2 || rest.length > 3 || !rest[0].isEmpty() || !VALUE.matcher(rest[1]).matches()
                    || (rest.length == 3 && !rest[2].matches("-?\\d+"))) {
                throw new IllegalArgumentException(at + "expected ' <value> [timestamp]'");
            }
            if (family == null || !belongs(name, family, types.get(family))) {
                throw new IllegalArgumentException(at + "sample outside its family (last # TYPE: " + family + ")");
            }
            String v = rest[1].replace("Inf", "Infinity");
            if (samples.put(key(name, labels), Double.parseDouble(v)) != null) {
                throw new IllegalArgumentException(at + "sample repeated");
            }
        }
        return new Exposition(samples, types);
    }

    private static boolean belongs(String name, String family, String type) {
        if (name.equals(family)) {
            return true;
        }
        Set<String> suffixes = type.equals("summary") || type.equals("histogram") ? Set.of("_count", "_sum", "_bucket")
                : Set.of();
        return suffixes.stream().anyMatch(s -> name.equals(family + s));
    }

    private static String unescape(String v) {
        return v.replace("\\n", "\n").replace("\\\"", "\"").replace("\\\\", "\\");
    }

    static String key(String name, Map<String, String> labels) {
        StringBuilder sb = new StringBuilder(name).append('{');
        labels.forEach((k, v) -> sb.append(k).append("=\"").append(v).append("\","));
        return sb.append('}').toString();
    }
}
