package org.jpbs.core.crypto;

import java.util.Locale;

/**
 * How a key file protects its key ({@code docs/formats.md#key-files}): not at all, or with a key
 * derived from a passphrase by scrypt (N=65536, r=8, p=1; the PBS default) or PBKDF2-HMAC-SHA256
 * (65535 iterations), each with a 32-byte random salt.
 */
public enum Kdf {
    NONE("none"),
    SCRYPT("scrypt"),
    PBKDF2("pbkdf2");

    private final String text;

    Kdf(String text) {
        this.text = text;
    }

    /** The command-line and {@code key show} name: {@code none}, {@code scrypt} or {@code pbkdf2}. */
    public String text() {
        return text;
    }

    /**
     * Parses a name, case-insensitively.
     *
     * @throws IllegalArgumentException naming the value and the choices
     */
    public static Kdf parse(String s) {
        for (Kdf k : values()) {
            if (k.text.equals(s == null ? null : s.toLowerCase(Locale.ROOT))) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown key derivation '" + s + "' (expected scrypt, pbkdf2 or none)");
    }

    @Override
    public String toString() {
        return text;
    }
}
