package org.jpbs.core.manifest;

/**
 * How a file of a snapshot is protected ({@code docs/formats.md#manifest-indexjsonblob}, manifest
 * {@code crypt-mode}): not at all, encrypted, or signed only.
 */
public enum CryptMode {
    NONE("none"),
    ENCRYPT("encrypt"),
    SIGN_ONLY("sign-only");

    private final String text;

    CryptMode(String text) {
        this.text = text;
    }

    /** The JSON text: {@code none}, {@code encrypt} or {@code sign-only}. */
    public String text() {
        return text;
    }

    /**
     * Parses the JSON text.
     *
     * @throws IllegalArgumentException naming the value if it is not one of the three
     */
    public static CryptMode parse(String s) {
        for (CryptMode m : values()) {
            if (m.text.equals(s)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown crypt mode '" + s + "' (expected none, encrypt or sign-only)");
    }

    @Override
    public String toString() {
        return text;
    }
}
