package org.jpbs.core;

/**
 * Every magic number of the PBS formats in one place. Each magic is the first 8 bytes of
 * SHA-256 of the quoted string ({@code docs/formats.md#datablob}, {@code docs/formats.md#fixed-index-fidx}, {@code docs/formats.md#dynamic-index-didx}, {@code docs/formats.md#catalog-catalogpcat1}); the test
 * {@code FileFormatsTest} re-derives each one. The constants hold the 8 bytes in file order
 * as a big-endian {@code long}.
 */
public final class FileFormats {
    private FileFormats() {}

    /** SHA-256("Proxmox Backup uncompressed blob v1.0")[0..8]. */
    public static final long UNCOMPRESSED_BLOB_MAGIC = 0x42ab3807be8370a1L;
    /** SHA-256("Proxmox Backup zstd compressed blob v1.0")[0..8]. */
    public static final long COMPRESSED_BLOB_MAGIC = 0x31b958426fb6a37fL;
    /** SHA-256("Proxmox Backup encrypted blob v1.0")[0..8]. */
    public static final long ENCRYPTED_BLOB_MAGIC = 0x7b6785be222d4cf0L;
    /** SHA-256("Proxmox Backup zstd compressed encrypted blob v1.0")[0..8]. */
    public static final long ENCR_COMPR_BLOB_MAGIC = 0xe6591bbf0bbfd80bL;
    /** SHA-256("Proxmox Backup fixed sized chunk index v1.0")[0..8]. */
    public static final long FIXED_INDEX_MAGIC = 0x2f7f41ed91fd0fcdL;
    /** SHA-256("Proxmox Backup dynamic sized chunk index v1.0")[0..8]. */
    public static final long DYNAMIC_INDEX_MAGIC = 0x1c914ea519bab3cdL;
    /** SHA-256("Proxmox Backup Catalog file v1.0")[0..8]. */
    public static final long CATALOG_MAGIC = 0x91fd60f9c46758d5L;

    /** Header length of an unencrypted blob: magic 8 + CRC32 4. */
    public static final int BLOB_HEADER_SIZE = 12;
    /** Header length of an encrypted blob: magic 8 + CRC32 4 + IV 16 + tag 16. */
    public static final int ENCRYPTED_BLOB_HEADER_SIZE = 44;
    /** Header length of fixed and dynamic index files. */
    public static final int INDEX_HEADER_SIZE = 4096;
    /** Largest blob payload accepted by encode (128 MiB). */
    public static final int MAX_BLOB_SIZE = 128 * 1024 * 1024;
    /** Largest chunk accepted by the upload API (16 MiB). */
    public static final int MAX_CHUNK_SIZE = 16 * 1024 * 1024;
    /** Default fixed chunk size for images (4 MiB). */
    public static final int DEFAULT_FIXED_CHUNK_SIZE = 4 * 1024 * 1024;

    /** Reads the 8 magic bytes at {@code off} as a big-endian long, to compare with the constants. */
    public static long magicAt(byte[] data, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (data[off + i] & 0xff);
        }
        return v;
    }

    /** Writes a magic constant as its 8 bytes (big-endian, i.e. in file order). */
    public static void putMagic(byte[] dst, int off, long magic) {
        for (int i = 7; i >= 0; i--) {
            dst[off + i] = (byte) magic;
            magic >>>= 8;
        }
    }
}
