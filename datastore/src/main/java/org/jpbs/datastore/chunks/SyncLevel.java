package org.jpbs.datastore.chunks;

import java.util.Locale;

/**
 * The datastore {@code sync-level} tuning option ({@code docs/formats.md#chunk-store-chunks},
 * {@code docs/datastore-config.md#datastorecfg}): how hard the datastore pushes written files to disk.
 */
public enum SyncLevel {
    /** No explicit syncing; the kernel writes back when it likes. */
    NONE("none"),
    /** fsync every chunk and index file, and the directory after each rename. */
    FILE("file"),
    /** One {@code syncfs} of the datastore's file system at the end of each backup (PBS default). */
    FILESYSTEM("filesystem");

    /** The PBS default, {@link #FILESYSTEM}. */
    public static final SyncLevel DEFAULT = FILESYSTEM;

    private final String text;

    SyncLevel(String text) {
        this.text = text;
    }

    /** The configuration word: {@code none}, {@code file} or {@code filesystem}. */
    public String text() {
        return text;
    }

    /**
     * Parses {@code none}, {@code file} or {@code filesystem} (case-insensitive).
     *
     * @throws IllegalArgumentException naming the value and the allowed words
     */
    public static SyncLevel parse(String s) {
        if (s != null) {
            String t = s.trim().toLowerCase(Locale.ROOT);
            for (SyncLevel l : values()) {
                if (l.text.equals(t)) {
                    return l;
                }
            }
        }
        throw new IllegalArgumentException("unknown sync-level '" + s + "' (expected none, file or filesystem)");
    }

    @Override
    public String toString() {
        return text;
    }
}
