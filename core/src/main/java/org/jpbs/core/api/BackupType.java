package org.jpbs.core.api;

/** The type of a backup group ({@code docs/formats.md#datastore-layout}): {@code vm}, {@code ct} or {@code host}. */
public enum BackupType {
    VM("vm"),
    CT("ct"),
    HOST("host");

    private final String text;

    BackupType(String text) {
        this.text = text;
    }

    /** The directory and JSON name: {@code vm}, {@code ct} or {@code host}. */
    public String text() {
        return text;
    }

    /**
     * Parses {@code vm}, {@code ct} or {@code host}.
     *
     * @throws IllegalArgumentException "unknown backup type 'xx' (expected vm, ct or host)"
     */
    public static BackupType parse(String s) {
        for (BackupType t : values()) {
            if (t.text.equals(s)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown backup type '" + s + "' (expected vm, ct or host)");
    }

    @Override
    public String toString() {
        return text;
    }
}
