package org.jpbs.core.pxar.pattern;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A path glob in git's wildmatch style ({@code docs/pxar.md#exclude-patterns}): {@code *} and
 * {@code ?} do not match {@code /}; {@code **} standing alone between slashes (or at either
 * end) matches any number of path components; {@code [...]} classes with ranges, {@code ^}
 * negation and {@code [:digit:]}-style names; backslash escapes the next byte. Trailing
 * slashes are dropped (the caller records "directories only"). Bytes, not characters.
 */
public final class Glob {
    private enum Kind { LITERAL, QUESTION, STAR, STARSTAR, CLASS }

    private record Part(Kind kind, byte[] literal, boolean[] klass) {}

    private final byte[] source;
    private final Part[] parts;

    private Glob(byte[] source, Part[] parts) {
        this.source = source;
        this.parts = parts;
    }

    /** The pattern as given, trailing slashes removed. */
    public byte[] source() {
        return source.clone();
    }

    /** @throws IllegalArgumentException naming what is wrong with the pattern */
    public static Glob parse(byte[] p) {
        if (p.length == 0) {
            throw new IllegalArgumentException("empty pattern");
        }
        int end = p.length;
        while (end > 0 && p[end - 1] == '/') {
            end--;
        }
        byte[] pat = end == 0 ? new byte[] {'/'} : Arrays.copyOf(p, end);
        List<Part> parts = new ArrayList<>();
        java.io.ByteArrayOutputStream lit = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < pat.length; i++) {
            byte c = pat[i];
            if (c == 0) {
                throw new IllegalArgumentException("null-byte in pattern");
            } else if (c == '\\') {
                if (++i == pat.length) {
                    throw new IllegalArgumentException("trailing backslash in pattern");
                }
                lit.write(pat[i]);
            } else if (c == '?' || c == '*' || c == '[') {
                flush(lit, parts);
                if (c == '?') {
                    parts.add(new Part(Kind.QUESTION, null, null));
                } else if (c == '*') {
                    if (i + 1 < pat.length && pat[i + 1] == '*') {
                        int beg = i;
                        while (i + 1 < pat.length && pat[i + 1] == '*') {
                            i++;
                        }
                        boolean alone = (beg == 0 || pat[beg - 1] == '/') && (i + 1 == pat.length || pat[i + 1] == '/');
                        parts.add(new Part(alone ? Kind.STARSTAR : Kind.STAR, null, null));
                    } else {
                        parts.add(new Part(Kind.STAR, null, null));
                    }
                } else {
                    int[] next = new int[1];
                    parts.add(new Part(Kind.CLASS, null, parseClass(pat, i, next)));
                    i = next[0];
                }
            } else {
                lit.write(c);
            }
        }
        flush(lit, parts);
        return new Glob(pat, parts.toArray(new Part[0]));
    }

    private static void flush(java.io.ByteArrayOutputStream lit, List<Part> parts) {
        if (lit.size() > 0) {
            parts.add(new Part(Kind.LITERAL, lit.toByteArray(), null));
            lit.reset();
        }
    }

    private static final String[] NAMES = {"alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print",
        "punct", "space", "upper", "xdigit"};

    private static boolean named(String n, int b) {
        return switch (n) {
            case "alnum" -> Character.isLetterOrDigit(b) && b < 128;
            case "alpha" -> Character.isLetter(b) && b < 128;
            case "blank" -> b == ' ' || b == '\t';
            case "cntrl" -> b < 32 || b == 127;
            case "digit" -> b >= '0' && b <= '9';
            case "graph" -> b > 32 && b < 127;
            case "lower" -> b >= 'a' && b <= 'z';
            case "print" -> b >= 0x20 && b <= 0x7f;
            case "punct" -> b > 32 && b < 127 && !Character.isLetterOrDigit(b);
            case "space" -> b == ' ' || (b >= 9 && b <= 13);
            case "upper" -> b >= 'A' && b <= 'Z';
            default -> (b >= '0' && b <= '9') || (b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F');
        };
    }

    /** Parses {@code [...]} starting at {@code pat[begin] == '['}; {@code next[0]} = index of the ']'. */
    private static boolean[] parseClass(byte[] pat, int begin, int[] next) {
        boolean[] set = new boolean[256];
        int i = begin + 1;
        boolean negated = i < pat.length && pat[i] == '^';
        if (negated) {
            i++;
        }
        int prev = -1;
        boolean closed = false;
        for (; i < pat.length; i++) {
            int c = pat[i] & 0xff;
            int newPrev = -1;
            if (c == '[' && i + 1 < pat.length && pat[i + 1] == ':') {
                String rest = new String(pat, i + 2, pat.length - i - 2, java.nio.charset.StandardCharsets.ISO_8859_1);
                String found = null;
                for (String n : NAMES) {
                    if (rest.startsWith(n + ":]")) {
                        found = n;
                    }
                }
                if (found == null) {
                    throw new IllegalArgumentException("malformed named character class in pattern, starting at byte " + begin);
                }
                for (int b = 0; b < 256; b++) {
                    set[b] |= named(found, b);
                }
                i += found.length() + 3;
            } else if (c == ']') {
                closed = true;
                break;
            } else if (c == '\\') {
                if (++i == pat.length) {
                    throw new IllegalArgumentException("trailing backslash in pattern");
                }
                set[pat[i] & 0xff] = true;
                newPrev = pat[i] & 0xff;
            } else if (c == '-' && prev >= 0) {
                if (++i == pat.length) {
                    throw new IllegalArgumentException("unclosed character class in pattern, starting at byte " + begin);
                }
                int e = pat[i] & 0xff;
                if (e == '\\' && ++i < pat.length) {
                    e = pat[i] & 0xff;
                }
                for (int b = Math.min(prev, e); b <= Math.max(prev, e); b++) {
                    set[b] = true;
                }
            } else {
                set[c] = true;
                newPrev = c;
            }
            prev = newPrev;
        }
        if (!closed) {
            throw new IllegalArgumentException("unclosed character class in pattern, starting at byte " + begin);
        }
        next[0] = i;
        if (negated) {
            for (int b = 0; b < 256; b++) {
                set[b] = !set[b];
            }
        }
        return set;
    }

    /** True if the whole {@code text} matches. */
    public boolean matches(byte[] text, int from) {
        return match(0, text, from);
    }

    private boolean match(int pi, byte[] t, int ti) {
        while (pi < parts.length) {
            Part p = parts[pi];
            switch (p.kind()) {
                case LITERAL -> {
                    byte[] l = p.literal();
                    if (t.length - ti < l.length || !Arrays.equals(t, ti, ti + l.length, l, 0, l.length)) {
                        return false;
                    }
                    ti += l.length;
                }
                case QUESTION -> {
                    if (ti >= t.length || t[ti] == '/') {
                        return false;
                    }
                    ti++;
                }
                case CLASS -> {
                    if (ti >= t.length || t[ti] == '/' || !p.klass()[t[ti] & 0xff]) {
                        return false;
                    }
                    ti++;
                }
                case STAR -> {
                    for (int k = ti; ; k++) {
                        if (match(pi + 1, t, k)) {
                            return true;
                        }
                        if (k >= t.length || t[k] == '/') {
                            return false;
                        }
                    }
                }
                case STARSTAR -> {
                    // "**/" may also match nothing at all (zero directories)
                    if (pi + 1 < parts.length && parts[pi + 1].kind() == Kind.LITERAL && parts[pi + 1].literal()[0] == '/') {
                        byte[] l = parts[pi + 1].literal();
                        Part rest = new Part(Kind.LITERAL, Arrays.copyOfRange(l, 1, l.length), null);
                        if (matchWith(pi + 1, rest, t, ti)) {
                            return true;
                        }
                    }
                    for (int k = ti; k <= t.length; k++) {
                        if (match(pi + 1, t, k)) {
                            return true;
                        }
                    }
                    return false;
                }
            }
            pi++;
        }
        return ti == t.length;
    }

    /** Matches with parts[pi] replaced by {@code replacement} (an empty literal matches nothing). */
    private boolean matchWith(int pi, Part replacement, byte[] t, int ti) {
        byte[] l = replacement.literal();
        if (t.length - ti < l.length || !Arrays.equals(t, ti, ti + l.length, l, 0, l.length)) {
            return false;
        }
        return match(pi + 1, t, ti + l.length);
    }
}
