package org.jpbs.core.crypto;

import java.util.Objects;
import org.bouncycastle.crypto.generators.SCrypt;

/**
 * The parameters of a key file's {@code kdf} field ({@code docs/formats.md#key-files}):
 * {@code {"Scrypt":{"n","r","p","salt"}}} or {@code {"PBKDF2":{"iter","salt"}}}. Derives the
 * 32-byte key that encrypts the stored key from a passphrase (raw bytes). Immutable.
 *
 * @param kdf        {@link Kdf#SCRYPT} or {@link Kdf#PBKDF2}
 * @param n          scrypt cost N (a power of two), 0 for PBKDF2
 * @param r          scrypt block size, 0 for PBKDF2
 * @param p          scrypt parallelism, 0 for PBKDF2
 * @param iterations PBKDF2 iterations, 0 for scrypt
 * @param salt       the salt (32 random bytes when created here; any length is read)
 */
public record KeyDerivation(Kdf kdf, int n, int r, int p, int iterations, byte[] salt) {
    /** scrypt N of new key files (PBS default). */
    public static final int SCRYPT_N = 65536;
    /** PBKDF2 iterations of new key files (PBS default). */
    public static final int PBKDF2_ITERATIONS = 65535;
    /** Salt length of new key files in bytes. */
    public static final int SALT_LENGTH = 32;

    public KeyDerivation {
        Objects.requireNonNull(kdf, "kdf");
        Objects.requireNonNull(salt, "salt");
        salt = salt.clone();
        if (kdf == Kdf.SCRYPT) {
            if (n < 2 || Integer.bitCount(n) != 1 || r < 1 || p < 1 || (long) n * r > (1L << 24)) {
                throw new IllegalArgumentException("invalid scrypt parameters n=" + n + ", r=" + r + ", p=" + p);
            }
        } else if (kdf == Kdf.PBKDF2) {
            if (iterations < 1 || iterations > 10_000_000) {
                throw new IllegalArgumentException("invalid PBKDF2 iteration count " + iterations);
            }
        } else {
            throw new IllegalArgumentException("kdf 'none' has no parameters");
        }
    }

    /** New parameters for {@code kdf} with the PBS defaults and a random 32-byte salt. */
    public static KeyDerivation create(Kdf kdf) {
        byte[] salt = new byte[SALT_LENGTH];
        new java.security.SecureRandom().nextBytes(salt);
        return switch (kdf) {
            case SCRYPT -> new KeyDerivation(Kdf.SCRYPT, SCRYPT_N, 8, 1, 0, salt);
            case PBKDF2 -> new KeyDerivation(Kdf.PBKDF2, 0, 0, 0, PBKDF2_ITERATIONS, salt);
            case NONE -> throw new IllegalArgumentException("kdf 'none' has no parameters");
        };
    }

    /** The salt (a copy). */
    @Override
    public byte[] salt() {
        return salt.clone();
    }

    /** Derives the 32-byte key from {@code passphrase} (raw bytes, UTF-8 for typed text). */
    public byte[] derive(byte[] passphrase) {
        return switch (kdf) {
            case SCRYPT -> SCrypt.generate(passphrase, salt, n, r, p, CryptConfig.KEY_LENGTH);
            case PBKDF2 -> CryptConfig.pbkdf2(passphrase, salt, iterations);
            case NONE -> throw new IllegalStateException("kdf 'none' derives nothing");
        };
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyDerivation k && kdf == k.kdf && n == k.n && r == k.r && p == k.p
                && iterations == k.iterations && java.util.Arrays.equals(salt, k.salt);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kdf, n, r, p, iterations, java.util.Arrays.hashCode(salt));
    }

    @Override
    public String toString() {
        return kdf == Kdf.SCRYPT ? "scrypt(n=" + n + ", r=" + r + ", p=" + p + ")" : "pbkdf2(iter=" + iterations + ")";
    }
}
