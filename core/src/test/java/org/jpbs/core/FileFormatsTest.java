package org.jpbs.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.jpbs.core.digest.Digest;
import org.junit.jupiter.api.Test;

class FileFormatsTest {
    private static long derive(String s) {
        return FileFormats.magicAt(Digest.sha256(s.getBytes(StandardCharsets.US_ASCII)).bytes(), 0);
    }

    @Test
    void everyMagicIsTheSha256PrefixOfItsString() {
        assertEquals(derive("Proxmox Backup uncompressed blob v1.0"), FileFormats.UNCOMPRESSED_BLOB_MAGIC);
        assertEquals(derive("Proxmox Backup zstd compressed blob v1.0"), FileFormats.COMPRESSED_BLOB_MAGIC);
        assertEquals(derive("Proxmox Backup encrypted blob v1.0"), FileFormats.ENCRYPTED_BLOB_MAGIC);
        assertEquals(derive("Proxmox Backup zstd compressed encrypted blob v1.0"), FileFormats.ENCR_COMPR_BLOB_MAGIC);
        assertEquals(derive("Proxmox Backup fixed sized chunk index v1.0"), FileFormats.FIXED_INDEX_MAGIC);
        assertEquals(derive("Proxmox Backup dynamic sized chunk index v1.0"), FileFormats.DYNAMIC_INDEX_MAGIC);
        assertEquals(derive("Proxmox Backup Catalog file v1.0"), FileFormats.CATALOG_MAGIC);
    }

    @Test
    void magicBytesRoundTripInFileOrder() {
        byte[] b = new byte[10];
        FileFormats.putMagic(b, 1, FileFormats.FIXED_INDEX_MAGIC);
        assertEquals(0x2f, b[1] & 0xff);
        assertEquals(0xcd, b[8] & 0xff);
        assertEquals(FileFormats.FIXED_INDEX_MAGIC, FileFormats.magicAt(b, 1));
    }
}
