package org.jpbs.datastore.config;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * PBS "property strings", the values of {@code tuning} and {@code maintenance-mode} in
 * {@code datastore.cfg} ({@code docs/datastore-config.md#datastorecfg}, {@code docs/datastore-config.md#maintenance-mode}): comma-separated
 * {@code key=value} items, optionally one leading bare value for a default key (e.g.
 * {@code read-only,message=moving disks}); a value may be double-quoted (with {@code \"} and
 * {@code \\} escapes) to contain commas. Stateless.
 */
public final class PropertyString {
    private PropertyString() {}

    /**
     * Parses a property string.
     *
     * @param what       name of the option, for messages (e.g. {@code tuning})
     * @param defaultKey key of a bare value, or null if none is allowed
     * @return key to value, in order
     * @throws IllegalArgumentException {@code "<what>: ..."} on a bare value without default key,
     *                                  a repeated key, an empty key or an unterminated quote
     */
    public static Map<String, String> parse(String what, String text, String defaultKey) {
        Map<String, String> out = new LinkedHashMap<>();
        int i = 0;
        int n = text.length();
        boolean first = true;
        while (i < n) {
            int eq = -1;
            int j = i;
            while (j < n && text.charAt(j) != ',' && text.charAt(j) != '"') {
                if (text.charAt(j) == '=' && eq < 0) {
                    eq = j;
                }
                j++;
            }
            String key;
            int valueStart;
            if (eq >= 0) {
                key = text.substring(i, eq).strip();
                valueStart = eq + 1;
            } else {
                if (!first || defaultKey == null) {
                    throw new IllegalArgumentException(what + ": expected 'key=value' in '" + text + "'");
                }
                key = defaultKey;
                valueStart = i;
            }
            if (key.isEmpty()) {
                throw new IllegalArgumentException(what + ": empty key in '" + text + "'");
            }
            StringBuilder value = new StringBuilder();
            int k = valueStart;
            if (k < n && text.charAt(k) == '"') {
                k++;
                boolean closed = false;
                while (k < n) {
                    char c = text.charAt(k++);
                    if (c == '\\' && k < n) {
                        value.append(text.charAt(k++));
                    } else if (c == '"') {
                        closed = true;
                        break;
                    } else {
                        value.append(c);
                    }
                }
                if (!closed || (k < n && text.charAt(k) != ',')) {
                    throw new IllegalArgumentException(what + ": bad quoting in '" + text + "'");
                }
            } else {
                while (k < n && text.charAt(k) != ',') {
                    value.append(text.charAt(k++));
                }
            }
            if (out.putIfAbsent(key, value.toString()) != null) {
                throw new IllegalArgumentException(what + ": duplicate key '" + key + "'");
            }
            i = k + 1; // skip the comma
            first = false;
        }
        return out;
    }

    /** Formats {@code key=value} items joined by commas; values with a comma or quote are quoted. */
    public static String format(Map<String, String> items) {
        StringBuilder sb = new StringBuilder();
        items.forEach((k, v) -> {
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(k).append('=');
            if (v.indexOf(',') >= 0 || v.indexOf('"') >= 0) {
                sb.append('"').append(v.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
            } else {
                sb.append(v);
            }
        });
        return sb.toString();
    }

    /**
     * Parses a boolean as the PBS schema does: {@code 1 true yes on} / {@code 0 false no off}
     * (case-insensitive).
     *
     * @throws IllegalArgumentException {@code "<what>: Unable to parse boolean option."}
     */
    public static boolean parseBool(String what, String v) {
        return switch (v.strip().toLowerCase(Locale.ROOT)) {
            case "1", "true", "yes", "on" -> true;
            case "0", "false", "no", "off" -> false;
            default -> throw new IllegalArgumentException(what + ": Unable to parse boolean option.");
        };
    }

    /**
     * Parses an integer in {@code [min, max]}.
     *
     * @throws IllegalArgumentException naming {@code what} and the bound, in PBS's words
     *                                  ({@code "<what>: value must have a maximum value of 65535 (got 70000)"})
     */
    public static long parseInt(String what, String v, long min, long max) {
        long n;
        try {
            n = Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + ": '" + v + "' is not an integer");
        }
        if (n < min) { // PBS's schema texts
            throw new IllegalArgumentException(what + ": value must have a minimum value of " + min + " (got " + n + ")");
        }
        if (n > max) {
            throw new IllegalArgumentException(what + ": value must have a maximum value of " + max + " (got " + n + ")");
        }
        return n;
    }

    /** Percent-decodes {@code %XX} sequences (UTF-8); text that is not valid stays as it is. */
    public static String percentDecode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < b.length; i++) {
            if (b[i] == '%' && i + 2 < b.length && hex(b[i + 1]) >= 0 && hex(b[i + 2]) >= 0) {
                out.write(hex(b[i + 1]) * 16 + hex(b[i + 2]));
                i += 2;
            } else {
                out.write(b[i]);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Percent-encodes {@code %}, {@code ,}, {@code =}, {@code "} and control characters (UTF-8 bytes). */
    public static String percentEncode(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (byte x : s.getBytes(StandardCharsets.UTF_8)) {
            int c = x & 0xff;
            if (c < 0x20 || c == 0x7f || c == '%' || c == ',' || c == '=' || c == '"') {
                sb.append('%').append(String.format(Locale.ROOT, "%02X", c));
            } else {
                sb.append((char) c);
            }
        }
        return new String(sb.toString().getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }

    private static int hex(byte c) {
        return Character.digit(c, 16);
    }
}
