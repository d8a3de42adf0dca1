package org.jpbs.core.digest;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A 32-byte SHA-256 digest: the name of a chunk and the checksum of an index
 * ({@code docs/formats.md#chunks-and-digests}). Immutable value class; equality and hash code are
 * computed over the four 64-bit words, so it is cheap to use as a map key.
 *
 * <p>As text it is 64 lowercase hex characters.
 */
public final class Digest implements Comparable<Digest> {
    /** Length of a digest in bytes (32). */
    public static final int LENGTH = 32;

    private static final HexFormat HEX = HexFormat.of();
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(Digest::newSha256);

    private final long w0, w1, w2, w3;

    private Digest(long w0, long w1, long w2, long w3) {
        this.w0 = w0;
        this.w1 = w1;
        this.w2 = w2;
        this.w3 = w3;
    }

    /**
     * Wraps 32 raw bytes.
     *
     * @param bytes exactly 32 bytes (copied)
     * @throws IllegalArgumentException if the length is not 32
     */
    public static Digest of(byte[] bytes) {
        if (bytes.length != LENGTH) {
            throw new IllegalArgumentException("digest must be 32 bytes, got " + bytes.length);
        }
        return read(ByteBuffer.wrap(bytes));
    }

    /**
     * Reads 32 bytes at the buffer's position and advances it.
     *
     * @throws java.nio.BufferUnderflowException if fewer than 32 bytes remain
     */
    public static Digest read(ByteBuffer buf) {
        ByteOrder old = buf.order();
        buf.order(ByteOrder.BIG_ENDIAN);
        try {
            return new Digest(buf.getLong(), buf.getLong(), buf.getLong(), buf.getLong());
        } finally {
            buf.order(old);
        }
    }

    /**
     * Parses 64 hex characters (either case).
     *
     * @throws IllegalArgumentException if the text is not 64 hex characters
     */
    public static Digest parse(String hex) {
        if (hex == null || hex.length() != 64) {
            throw new IllegalArgumentException("digest must be 64 hex characters: '" + hex + "'");
        }
        try {
            return of(HEX.parseHex(hex));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("digest is not hex: '" + hex + "'", e);
        }
    }

    /** Returns true if {@code s} is 64 lowercase hex characters (a chunk file name). */
    public static boolean isHex(CharSequence s) {
        if (s.length() != 64) {
            return false;
        }
        for (int i = 0; i < 64; i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }

    /** SHA-256 of {@code data[off, off+len)}. */
    public static Digest sha256(byte[] data, int off, int len) {
        MessageDigest md = SHA256.get();
        md.reset();
        md.update(data, off, len);
        return of(md.digest());
    }

    /** SHA-256 of the whole array. */
    public static Digest sha256(byte[] data) {
        return sha256(data, 0, data.length);
    }

    /** SHA-256 of the remaining bytes of the buffer (position is advanced to the limit). */
    public static Digest sha256(ByteBuffer data) {
        MessageDigest md = SHA256.get();
        md.reset();
        md.update(data);
        return of(md.digest());
    }

    /** A fresh SHA-256 {@link MessageDigest}. */
    public static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    /** The 32 raw bytes (a new array). */
    public byte[] bytes() {
        ByteBuffer b = ByteBuffer.allocate(LENGTH);
        writeTo(b);
        return b.array();
    }

    /** Writes the 32 bytes at the buffer's position and advances it. */
    public void writeTo(ByteBuffer buf) {
        ByteOrder old = buf.order();
        buf.order(ByteOrder.BIG_ENDIAN);
        buf.putLong(w0).putLong(w1).putLong(w2).putLong(w3);
        buf.order(old);
    }

    /** 64 lowercase hex characters. */
    public String hex() {
        return HEX.toHexDigits(w0) + HEX.toHexDigits(w1) + HEX.toHexDigits(w2) + HEX.toHexDigits(w3);
    }

    /** The first two bytes as 4 hex characters: the {@code .chunks} subdirectory name ({@code docs/formats.md#chunk-store-chunks}). */
    public String prefix() {
        return HEX.toHexDigits((short) (w0 >>> 48));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Digest d && d.w0 == w0 && d.w1 == w1 && d.w2 == w2 && d.w3 == w3;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(w0 ^ w1 ^ w2 ^ w3);
    }

    /** Orders by the raw bytes as unsigned values (the order of the hex names). */
    @Override
    public int compareTo(Digest o) {
        int c = Long.compareUnsigned(w0, o.w0);
        if (c == 0) c = Long.compareUnsigned(w1, o.w1);
        if (c == 0) c = Long.compareUnsigned(w2, o.w2);
        if (c == 0) c = Long.compareUnsigned(w3, o.w3);
        return c;
    }

    @Override
    public String toString() {
        return hex();
    }
}
