package org.jpbs.client.progress;

import java.util.Locale;

/** Formatting of byte counts (binary units), rates and durations for humans. */
public final class Units {
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private Units() {}

    /**
     * Bytes in binary units with one decimal: {@code 0 B}, {@code 512 B}, {@code 1.5 KiB},
     * {@code 20.0 MiB}, {@code 1.2 GiB}.
     */
    public static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        double v = n;
        int u = 0;
        while (v >= 1024 && u < UNITS.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, UNITS[u]);
    }

    /** A rate in MiB/s with one decimal, e.g. {@code 412.3 MiB/s}. */
    public static String rate(double bytesPerSecond) {
        return String.format(Locale.ROOT, "%.1f MiB/s", bytesPerSecond / (1024.0 * 1024.0));
    }

    /** Bytes per second for {@code bytes} processed in {@code nanos} (0 if no time passed). */
    public static double bytesPerSecond(long bytes, long nanos) {
        return nanos <= 0 ? 0 : bytes * 1e9 / nanos;
    }

    /** Whole seconds as {@code m:ss} or {@code h:mm:ss}, e.g. {@code 0:05}, {@code 1:02:03}. */
    public static String duration(long seconds) {
        long h = seconds / 3600;
        long m = (seconds / 60) % 60;
        long s = seconds % 60;
        return h > 0 ? String.format(Locale.ROOT, "%d:%02d:%02d", h, m, s)
                : String.format(Locale.ROOT, "%d:%02d", m, s);
    }

    /** Nanoseconds as seconds with two decimals, e.g. {@code 0.41 s}. */
    public static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.2f s", nanos / 1e9);
    }

    /** {@code "1 chunk"} / {@code "3 chunks"}. */
    public static String chunks(long n) {
        return n + (n == 1 ? " chunk" : " chunks");
    }
}
