package org.jpbs.core.crypto;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * The fingerprint of an encryption key ({@code docs/formats.md#key-files}): 32 bytes, written as
 * lowercase hex pairs joined by {@code :} (95 characters). The PBS client shows only the first
 * 8 bytes ({@link #shortForm()}). Immutable.
 */
public final class Fingerprint {
    /** Length of a fingerprint in bytes. */
    public static final int LENGTH = 32;
    private static final HexFormat COLON_HEX = HexFormat.ofDelimiter(":");

    private final byte[] bytes;

    private Fingerprint(byte[] bytes) {
        this.bytes = bytes;
    }

    /**
     * Wraps 32 bytes (copied).
     *
     * @throws IllegalArgumentException if {@code bytes} is not 32 bytes long
     */
    public static Fingerprint of(byte[] bytes) {
        if (bytes.length != LENGTH) {
            throw new IllegalArgumentException("a key fingerprint has 32 bytes, got " + bytes.length);
        }
        return new Fingerprint(bytes.clone());
    }

    /**
     * Parses the colon-separated hex form ({@code 12:b9:...:25}, case-insensitive).
     *
     * @throws IllegalArgumentException naming the text if it is not 32 colon-separated hex pairs
     */
    public static Fingerprint parse(String text) {
        if (text == null || text.length() != LENGTH * 3 - 1) {
            throw new IllegalArgumentException("invalid key fingerprint '" + text + "' (expected 32 hex pairs joined by ':')");
        }
        try {
            return new Fingerprint(COLON_HEX.parseHex(text));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid key fingerprint '" + text + "' (expected 32 hex pairs joined by ':')", e);
        }
    }

    /** The 32 bytes (a copy). */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** The first 8 bytes in colon-hex form, as the PBS client prints a key's fingerprint. */
    public String shortForm() {
        return COLON_HEX.formatHex(bytes, 0, 8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Fingerprint f && Arrays.equals(bytes, f.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    /** The full colon-hex form, lowercase (95 characters). */
    @Override
    public String toString() {
        return COLON_HEX.formatHex(bytes);
    }
}
