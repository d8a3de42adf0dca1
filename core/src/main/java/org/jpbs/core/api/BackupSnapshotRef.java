package org.jpbs.core.api;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A snapshot ({@code docs/formats.md#datastore-layout}): a group and a time, written
 * {@code vm/100/2023-11-14T22:13:20Z}. Times are epoch seconds shown as RFC 3339 UTC with
 * second precision.
 *
 * @param group the backup group
 * @param time  snapshot time, epoch seconds
 */
public record BackupSnapshotRef(BackupGroupRef group, long time) {
    private static final Pattern TIME = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z");
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'");
    /** 0000-01-01T00:00:00Z. */
    private static final long MIN_TIME = -62167219200L;
    /** 9999-12-31T23:59:59Z. */
    private static final long MAX_TIME = 253402300799L;

    /** @throws IllegalArgumentException if the time cannot be written with a 4-digit year */
    public BackupSnapshotRef {
        Objects.requireNonNull(group, "group");
        formatTime(time);
    }

    /**
     * Parses {@code "vm/100/2023-11-14T22:13:20Z"} within {@code ns}.
     *
     * @throws IllegalArgumentException naming the value if it is not {@code <type>/<id>/<time>}
     */
    public static BackupSnapshotRef parse(BackupNamespace ns, String s) {
        if (s == null) {
            throw new IllegalArgumentException("snapshot must not be null");
        }
        int last = s.lastIndexOf('/');
        if (last < 0) {
            throw new IllegalArgumentException("invalid snapshot '" + s + "' (expected <type>/<id>/<time>)");
        }
        BackupGroupRef g;
        try {
            g = BackupGroupRef.parse(ns, s.substring(0, last));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid snapshot '" + s + "': " + e.getMessage(), e);
        }
        return new BackupSnapshotRef(g, parseTime(s.substring(last + 1)));
    }

    /**
     * Formats epoch seconds as {@code yyyy-MM-ddTHH:mm:ssZ} (UTC).
     *
     * @throws IllegalArgumentException if the year is outside 0000..9999
     */
    public static String formatTime(long epochSec) {
        if (epochSec < MIN_TIME || epochSec > MAX_TIME) {
            throw new IllegalArgumentException("snapshot time " + epochSec + " is outside years 0000..9999");
        }
        return FORMAT.format(LocalDateTime.ofEpochSecond(epochSec, 0, ZoneOffset.UTC));
    }

    /**
     * Parses {@code yyyy-MM-ddTHH:mm:ssZ} (UTC) to epoch seconds.
     *
     * @throws IllegalArgumentException naming the value if the format or the date is invalid
     */
    public static long parseTime(String s) {
        if (s == null || !TIME.matcher(s).matches()) {
            throw new IllegalArgumentException("invalid snapshot time '" + s + "' (expected e.g. 2023-11-14T22:13:20Z)");
        }
        try {
            LocalDateTime t = LocalDateTime.parse(s.substring(0, s.length() - 1), DateTimeFormatter.ISO_LOCAL_DATE_TIME
                    .withResolverStyle(java.time.format.ResolverStyle.STRICT));
            return t.toEpochSecond(ZoneOffset.UTC);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("invalid snapshot time '" + s + "': " + e.getMessage(), e);
        }
    }

    /** The time as {@code 2023-11-14T22:13:20Z}. */
    public String timeString() {
        return formatTime(time);
    }

    /** The time as an {@link Instant}. */
    public Instant instant() {
        return Instant.ofEpochSecond(time);
    }

    /** The snapshot directory below the datastore root: {@code [ns/a/]vm/100/2023-11-14T22:13:20Z}. */
    public String relativePath() {
        return group.relativePath() + "/" + timeString();
    }

    /** {@code vm/100/2023-11-14T22:13:20Z} (without the namespace). */
    @Override
    public String toString() {
        return group + "/" + timeString();
    }
}
