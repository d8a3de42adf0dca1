package org.jpbs.server.notify;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One notification event ({@code docs/notifications.md#events}).
 *
 * @param severity  how bad it is
 * @param title     one line (the mail subject)
 * @param message   plain text body
 * @param fields    metadata fields matchers look at ({@code type}, {@code datastore},
 *                  {@code hostname}, {@code job-id}); sorted by name
 * @param timestamp seconds since the epoch
 */
public record Notification(Severity severity, String title, String message, Map<String, String> fields, long timestamp) {
    /** Checks for nulls and copies the fields. */
    public Notification {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(message, "message");
        fields = java.util.Collections.unmodifiableMap(new TreeMap<>(fields));
    }
}
