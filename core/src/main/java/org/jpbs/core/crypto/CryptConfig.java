package org.jpbs.core.crypto;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.generators.PKCS5S2ParametersGenerator;
import org.bouncycastle.crypto.params.KeyParameter;
import org.jpbs.core.digest.Digest;

/**
 * An encryption key and what PBS derives from it ({@code docs/formats.md#chunks-and-digests}, {@code docs/formats.md#manifest-indexjsonblob}, {@code docs/formats.md#key-files}):
 * <ul>
 * <li>{@code id_key} = PBKDF2-HMAC-SHA256(password = the 32 key bytes, salt {@code "_id_key"},
 *     10 iterations, 32 bytes);</li>
 * <li>the digest of an encrypted chunk, SHA-256(plaintext ‖ id_key) ({@link #computeDigest});</li>
 * <li>the manifest signature, HMAC-SHA256(id_key, canonical JSON) ({@link #authTag});</li>
 * <li>the key fingerprint, SHA-256(SHA-256("Proxmox Backup Encryption Key Fingerprint") ‖ id_key);</li>
 * <li>AES-256-GCM with a 16-byte IV, empty AAD and a separate 16-byte tag ({@link #encrypt},
 *     {@link #decrypt}).</li>
 * </ul>
 * Immutable and thread-safe. {@link #toString()} shows only the fingerprint.
 */
public final class CryptConfig {
    /** Key length in bytes (AES-256). */
    public static final int KEY_LENGTH = 32;
    /** IV length in bytes: 16, not GCM's usual 12 ({@code docs/formats.md#datablob}). */
    public static final int IV_LENGTH = 16;
    /** GCM tag length in bytes. */
    public static final int TAG_LENGTH = 16;

    private static final byte[] ID_KEY_SALT = "_id_key".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FINGERPRINT_INPUT = Digest.sha256(
            "Proxmox Backup Encryption Key Fingerprint".getBytes(StandardCharsets.US_ASCII)).bytes();
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] key;
    private final SecretKeySpec aesKey;
    private final byte[] idKey;
    private final SecretKeySpec hmacKey;
    private final Fingerprint fingerprint;

    private CryptConfig(byte[] key) {
        this.key = key;
        this.aesKey = new SecretKeySpec(key, "AES");
        this.idKey = pbkdf2(key, ID_KEY_SALT, 10);
        this.hmacKey = new SecretKeySpec(idKey, "HmacSHA256");
        MessageDigest md = Digest.newSha256();
        md.update(FINGERPRINT_INPUT);
        md.update(idKey);
        this.fingerprint = Fingerprint.of(md.digest());
    }

    /**
     * A config for a raw 32-byte key (copied).
     *
     * @throws IllegalArgumentException if the key is not 32 bytes
     */
    public static CryptConfig of(byte[] key) {
        Objects.requireNonNull(key, "key");
        if (key.length != KEY_LENGTH) {
            throw new IllegalArgumentException("an encryption key has 32 bytes, got " + key.length);
        }
        return new CryptConfig(key.clone());
    }

    /** A new random 32-byte key (from {@link SecureRandom}). */
    public static byte[] randomKey() {
        byte[] k = new byte[KEY_LENGTH];
        RANDOM.nextBytes(k);
        return k;
    }

    /** Fills {@code iv[off, off+16)} with random bytes. */
    static void randomIv(byte[] iv, int off) {
        byte[] r = new byte[IV_LENGTH];
        RANDOM.nextBytes(r);
        System.arraycopy(r, 0, iv, off, IV_LENGTH);
    }

    /** PBKDF2-HMAC-SHA256 over raw password bytes, 32 bytes out. */
    static byte[] pbkdf2(byte[] password, byte[] salt, int iterations) {
        PKCS5S2ParametersGenerator gen = new PKCS5S2ParametersGenerator(SHA256Digest.newInstance());
        gen.init(password, salt, iterations);
        return ((KeyParameter) gen.generateDerivedParameters(KEY_LENGTH * 8)).getKey();
    }

    /** The raw 32-byte key (a copy): what a key file stores. */
    public byte[] key() {
        return key.clone();
    }

    /** The key's fingerprint. */
    public Fingerprint fingerprint() {
        return fingerprint;
    }

    /** The 32-byte id_key (a copy). */
    public byte[] idKey() {
        return idKey.clone();
    }

    /** Digest of an encrypted chunk: SHA-256({@code data[off, off+len)} ‖ id_key), {@code docs/formats.md#chunks-and-digests}. */
    public Digest computeDigest(byte[] data, int off, int len) {
        MessageDigest md = Digest.newSha256();
        md.update(data, off, len);
        md.update(idKey);
        return Digest.of(md.digest());
    }

    /** HMAC-SHA256 keyed with id_key over {@code data} (32 bytes): the manifest signature, {@code docs/formats.md#manifest-indexjsonblob}. */
    public byte[] authTag(byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(hmacKey);
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    /**
     * Encrypts {@code src[off, off+len)} into {@code dst[dstOff, dstOff+len)} with AES-256-GCM
     * and writes the 16-byte tag to {@code tag[tagOff..]}. See {@link AesGcm} for why the data is
     * fed in slices.
     *
     * @param iv 16 bytes
     */
    public void encrypt(byte[] iv, byte[] src, int off, int len, byte[] dst, int dstOff, byte[] tag, int tagOff) {
        AesGcm.encrypt(aesKey, iv, src, off, len, dst, dstOff, tag, tagOff);
    }

    /**
     * Decrypts and authenticates {@code src[off, off+len)} (ciphertext without tag).
     *
     * @param iv  16 bytes
     * @param tag 16 bytes
     * @return the plaintext (a new array of {@code len} bytes), released only after the tag verified
     * @throws javax.crypto.AEADBadTagException if the tag does not verify (wrong key or corrupt data)
     */
    public byte[] decrypt(byte[] iv, byte[] tag, byte[] src, int off, int len) throws javax.crypto.AEADBadTagException {
        return AesGcm.decrypt(aesKey, iv, tag, src, off, len);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CryptConfig c && MessageDigest.isEqual(key, c.key);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(fingerprint.bytes());
    }

    @Override
    public String toString() {
        return "CryptConfig[fingerprint " + fingerprint + "]";
    }
}
