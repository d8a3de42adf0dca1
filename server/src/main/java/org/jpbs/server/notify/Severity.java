package org.jpbs.server.notify;

import java.util.Locale;

/** The severity of a notification ({@code docs/notifications.md#severities}), as PBS names them. */
public enum Severity {
    /** Informational (a job succeeded). */
    INFO(1),
    /** Worth a look. */
    NOTICE(3),
    /** Something went partly wrong (a task ended with warnings). */
    WARNING(5),
    /** Something failed. */
    ERROR(9),
    /** Unknown (e.g. forwarded system mail). */
    UNKNOWN(5);

    private final int gotifyPriority;

    Severity(int gotifyPriority) {
        this.gotifyPriority = gotifyPriority;
    }

    /** The lower-case name used in {@code match-severity} and templates. */
    public String text() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The priority a Gotify message gets for this severity. */
    public int gotifyPriority() {
        return gotifyPriority;
    }

    /**
     * Parses a name.
     *
     * @throws IllegalArgumentException {@code "invalid severity 'x'"}
     */
    public static Severity parse(String s) {
        for (Severity v : values()) {
            if (v.text().equals(s)) {
                return v;
            }
        }
        throw new IllegalArgumentException("invalid severity '" + s + "' (expected info, notice, warning, error or unknown)");
    }

    @Override
    public String toString() {
        return text();
    }
}
