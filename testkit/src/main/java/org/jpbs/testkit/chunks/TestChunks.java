package org.jpbs.testkit.chunks;

import java.util.SplittableRandom;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;

/**
 * Seeded chunks for tests: plain (compressed or not) and really encrypted ones, each with the
 * digest a backup would give it (SHA-256 of the data, or the keyed digest of
 * {@link CryptConfig#computeDigest} for an encrypted chunk).
 */
public final class TestChunks {
    private TestChunks() {}

    /**
     * A chunk: digest, plaintext and encoded blob.
     *
     * @param digest its digest
     * @param data   the plaintext
     * @param blob   the encoded blob
     */
    public record Chunk(Digest digest, byte[] data, DataBlob blob) {}

    /** {@code n} pseudo-random bytes from {@code seed}; {@code compressible} makes them repeat (so zstd shrinks them). */
    public static byte[] bytes(long seed, int n, boolean compressible) {
        byte[] b = new byte[n];
        SplittableRandom r = new SplittableRandom(seed);
        if (!compressible) {
            r.nextBytes(b);
            return b;
        }
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ('a' + r.nextInt(4));
        }
        return b;
    }

    /** A plain chunk of {@code n} bytes, compressed (compressible data) or not. */
    public static Chunk plain(long seed, int n, boolean compressed) {
        byte[] d = bytes(seed, n, compressed);
        return new Chunk(Digest.sha256(d), d, DataBlob.encode(d, 0, n, compressed));
    }

    /** The key {@link #encrypted} uses for {@code keySeed}. */
    public static CryptConfig key(long keySeed) {
        byte[] k = new byte[CryptConfig.KEY_LENGTH];
        new SplittableRandom(keySeed).nextBytes(k);
        return CryptConfig.of(k);
    }

    /** An encrypted chunk of {@code n} bytes under {@link #key key(keySeed)}, compressed or not. */
    public static Chunk encrypted(long seed, int n, boolean compressed, long keySeed) {
        CryptConfig crypt = key(keySeed);
        byte[] d = bytes(seed, n, compressed);
        return new Chunk(crypt.computeDigest(d, 0, n), d, DataBlob.encodeEncrypted(d, 0, n, compressed, crypt));
    }

    /** The same plaintext as {@code plain}, encrypted under {@code key(keySeed)} but stored under {@code plain}'s digest (a poisoning attempt). */
    public static DataBlob encryptedUnder(Chunk plain, boolean compressed, long keySeed) {
        byte[] d = plain.data();
        return DataBlob.encodeEncrypted(d, 0, d.length, compressed, key(keySeed));
    }
}
