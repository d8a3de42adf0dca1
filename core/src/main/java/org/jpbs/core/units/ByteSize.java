package org.jpbs.core.units;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A byte size as PBS's configuration writes it ({@code rate-in}, {@code burst-out},
 * {@code max-cache-size}; {@code docs/sync.md#options}): a non-negative decimal number, optional
 * blanks, then an optional unit: {@code K}, {@code M}, {@code G}, {@code T}, {@code P} (powers of
 * 1000, either case), the same followed by a lower-case {@code i} (powers of 1024), and an
 * optional trailing {@code B} or {@code b} (a byte is implied): {@code 500000}, {@code 10MiB},
 * {@code 1.5 GB}, {@code 2kib}, {@code 4Ki}. The one parser of the code base. Stateless.
 */
public final class ByteSize {
    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)[ \\t]*(?:([KMGTPkmgtp])(i?))?[Bb]?");

    private ByteSize() {}

    /**
     * Parses a byte size.
     *
     * @return the size in bytes (fractions rounded down)
     * @throws IllegalArgumentException {@code "'<text>' is not a byte size (e.g. 10MiB)"}; callers
     *                                  put the option's name in front
     */
    public static long parse(String text) {
        Matcher m = text == null || text.length() > 64 ? null : SIZE.matcher(text.strip());
        if (m == null || !m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a byte size (e.g. 10MiB)");
        }
        double n = Double.parseDouble(m.group(1));
        int power = m.group(2) == null ? 0 : "KMGTP".indexOf(Character.toUpperCase(m.group(2).charAt(0))) + 1;
        double base = m.group(3) != null && !m.group(3).isEmpty() ? 1024 : 1000;
        return (long) (n * Math.pow(base, power));
    }
}
