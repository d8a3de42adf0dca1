package org.jpbs.client.engine;

import java.util.Locale;

/**
 * How a file archive is written and unchanged files found ({@code docs/pxar.md#metadata-change-detection}),
 * the PBS client's {@code --change-detection-mode}.
 */
public enum ChangeDetectionMode {
    /** One pxar stream {@code NAME.pxar.didx}, every file read (the default). */
    LEGACY,
    /** A split archive ({@code NAME.mpxar.didx} + {@code NAME.ppxar.didx}), every file read. */
    DATA,
    /**
     * A split archive; a file whose size and metadata equal the previous snapshot's is not read,
     * its payload chunks are reused.
     */
    METADATA;

    /** The name on the command line. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses {@code legacy}, {@code data} or {@code metadata}.
     *
     * @throws IllegalArgumentException for anything else
     */
    public static ChangeDetectionMode parse(String s) {
        for (ChangeDetectionMode m : values()) {
            if (m.cliName().equals(s)) {
                return m;
            }
        }
        throw new IllegalArgumentException("value '" + s + "' is not defined in the enumeration (legacy, data, metadata)");
    }

    /** True for the split modes. */
    public boolean split() {
        return this != LEGACY;
    }
}
