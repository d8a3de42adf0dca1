package org.jpbs.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Password and token-secret hashes as stored in {@code shadow.json} and {@code token.shadow}:
 * {@code $pbkdf2-sha256$<iterations>$<base64 salt>$<base64 hash>} (PBKDF2WithHmacSHA256 from
 * the JDK, 16-byte random salt, 32-byte hash, standard base64 without padding).
 *
 * <p>Differs from PBS, which stores crypt(3) SHA-512 hashes ({@code $6$...}); those are not
 * accepted here, so a PBS {@code shadow.json} cannot be reused — set the passwords again.
 * Passwords use {@link #PASSWORD_ITERATIONS}; API token secrets are random UUIDs (122 bits
 * of entropy), which no dictionary attack can guess, so they use the cheaper
 * {@link #TOKEN_ITERATIONS}. Thread-safe.
 */
public final class PasswordHash {
    /** Iterations for passwords (OWASP 2023 recommendation for PBKDF2-HMAC-SHA256). */
    public static final int PASSWORD_ITERATIONS = 600_000;
    /** Iterations for random token secrets. */
    public static final int TOKEN_ITERATIONS = 10_000;
    private static final String PREFIX = "$pbkdf2-sha256$";
    private static final int SALT_BYTES = 16;
    private static final int HASH_BITS = 256;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64 = Base64.getEncoder().withoutPadding();

    private PasswordHash() {}

    /** Hashes {@code secret} with a fresh random salt. */
    public static String hash(String secret, int iterations) {
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations must be positive");
        }
        byte[] salt = new byte[SALT_BYTES];
        RANDOM.nextBytes(salt);
        byte[] h = pbkdf2(secret, salt, iterations);
        return PREFIX + iterations + "$" + B64.encodeToString(salt) + "$" + B64.encodeToString(h);
    }

    /**
     * True if {@code secret} matches {@code stored}; false for a malformed or foreign
     * ({@code $6$}) hash. Constant-time comparison.
     */
    public static boolean verify(String secret, String stored) {
        if (secret == null || stored == null || !stored.startsWith(PREFIX)) {
            return false;
        }
        String[] f = stored.substring(PREFIX.length()).split("\\$", -1);
        if (f.length != 3) {
            return false;
        }
        try {
            int iterations = Integer.parseInt(f[0]);
            if (iterations < 1 || iterations > 100_000_000) {
                return false;
            }
            byte[] salt = Base64.getDecoder().decode(f[1]);
            byte[] expected = Base64.getDecoder().decode(f[2]);
            if (expected.length != HASH_BITS / 8) {
                return false;
            }
            return MessageDigest.isEqual(expected, pbkdf2(secret, salt, iterations));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static byte[] pbkdf2(String secret, byte[] salt, int iterations) {
        char[] chars = secret.toCharArray();
        PBEKeySpec spec = new PBEKeySpec(chars, salt, iterations, HASH_BITS);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA256 unavailable", e);
        } finally {
            spec.clearPassword();
            java.util.Arrays.fill(chars, '\0');
        }
    }

    /** SHA-256 of a secret's UTF-8 bytes (for the in-memory cache of verified token secrets). */
    static byte[] fingerprint(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
