package org.jpbs.core.pxar.pattern;

import java.util.List;

/**
 * One include or exclude pattern ({@code docs/pxar.md#exclude-patterns}). A leading {@code !}
 * inverts the type, a trailing {@code /} restricts it to directories. Unless anchored, the
 * glob may match any complete suffix of the path ({@code bar} matches {@code /foo/bar}).
 * In a list, the last matching entry decides.
 */
public record MatchEntry(Glob glob, boolean include, boolean directoriesOnly, boolean anchored) {

    /** Parses {@code pattern} as given on a command line or in a {@code .pxarexclude} line. */
    public static MatchEntry parse(byte[] pattern, boolean include, boolean anchored) {
        boolean inc = include;
        int start = 0;
        if (pattern.length > 0 && pattern[0] == '!') {
            inc = !include;
            start = 1;
        }
        byte[] p = java.util.Arrays.copyOfRange(pattern, start, pattern.length);
        int end = p.length;
        while (end > 0 && p[end - 1] == '/') {
            end--;
        }
        boolean dirs = end < p.length || p.length == 0;
        if (p.length == 0) {
            throw new IllegalArgumentException("empty pattern");
        }
        return new MatchEntry(Glob.parse(p), inc, dirs, anchored);
    }

    /** Whether this entry matches {@code path} (with a leading '/') of a file of type {@code fileType} (S_IF* bits, or -1 if unknown). */
    public boolean matches(byte[] path, int fileType) {
        if (directoriesOnly && fileType >= 0 && fileType != 0040000) {
            return false;
        }
        if (anchored) {
            return glob.matches(path, 0);
        }
        if (path.length == 0) {
            return false;
        }
        for (int i = path.length - 1; i >= 0; i--) {
            if (path[i] == '/' && glob.matches(path, i + 1)) {
                return true;
            }
        }
        return glob.matches(path, 0);
    }

    /**
     * The decision of a list for a path: {@code Boolean.TRUE} include, {@code FALSE} exclude,
     * null if no entry matches. The last matching entry wins.
     */
    public static Boolean decide(List<MatchEntry> list, byte[] path, int fileType) {
        for (int i = list.size() - 1; i >= 0; i--) {
            MatchEntry e = list.get(i);
            if (e.matches(path, fileType)) {
                return e.include();
            }
        }
        return null;
    }

    /** The line {@code .pxarexclude-cli} records for this entry (as an exclude list, so includes get '!'). */
    public byte[] cliLine() {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        if (include) {
            out.write('!');
        }
        byte[] s = glob.source();
        out.writeBytes(s);
        if (directoriesOnly && s[s.length - 1] != '/') {
            out.write('/');
        }
        out.write('\n');
        return out.toByteArray();
    }
}
