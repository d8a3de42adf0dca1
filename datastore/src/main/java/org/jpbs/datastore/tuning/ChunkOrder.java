package org.jpbs.datastore.tuning;

/**
 * Order in which chunks of an index are processed (tuning {@code chunk-order}, {@code docs/gc.md#verify}, {@code docs/datastore-config.md#datastorecfg}). PBS uses it for verify; jpbs also uses it for
 * garbage-collection marking.
 */
public enum ChunkOrder {
    /**
     * Disk order: verify reads chunks sorted by inode number; garbage collection touches each
     * batch of digests sorted by name, i.e. chunk directory by chunk directory (the default).
     */
    INODE("inode"),
    /** Index order, as the digests appear in the index. */
    NONE("none");

    private final String text;

    ChunkOrder(String text) {
        this.text = text;
    }

    /** The config text: {@code inode} or {@code none}. */
    public String text() {
        return text;
    }

    /**
     * Parses the config text.
     *
     * @throws IllegalArgumentException naming the value if it is neither {@code inode} nor {@code none}
     */
    public static ChunkOrder parse(String s) {
        for (ChunkOrder o : values()) {
            if (o.text.equals(s)) {
                return o;
            }
        }
        throw new IllegalArgumentException("unknown chunk-order '" + s + "' (expected inode or none)");
    }

    @Override
    public String toString() {
        return text;
    }
}
