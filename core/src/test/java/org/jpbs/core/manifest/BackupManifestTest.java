package org.jpbs.core.manifest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.junit.jupiter.api.Test;

class BackupManifestTest {
    private static final Digest ONES = Digest.of(filled(1));
    private static final Digest TWOS = Digest.of(filled(2));

    private static byte[] filled(int v) {
        byte[] b = new byte[32];
        java.util.Arrays.fill(b, (byte) v);
        return b;
    }

    private static String s(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private static BackupManifest elsa() {
        BackupManifest m = new BackupManifest(BackupType.HOST, "elsa", 1593179765L);
        m.addFile(new FileEntry("test1.img.fidx", CryptMode.ENCRYPT, 200, ONES));
        m.addFile(new FileEntry("abc.blob", CryptMode.NONE, 200, TWOS));
        return m;
    }

    private static byte[] hmac(byte[] key, byte[] data) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return mac.doFinal(data);
    }

    /** PBKDF2-HMAC-SHA256 with one 32-byte block (the id_key derivation of {@code docs/formats.md#chunks-and-digests}). */
    private static byte[] pbkdf2(byte[] password, byte[] salt, int iterations) throws Exception {
        byte[] block = new byte[salt.length + 4];
        System.arraycopy(salt, 0, block, 0, salt.length);
        block[block.length - 1] = 1;
        byte[] u = hmac(password, block);
        byte[] out = u.clone();
        for (int i = 1; i < iterations; i++) {
            u = hmac(password, u);
            for (int k = 0; k < out.length; k++) {
                out[k] ^= u[k];
            }
        }
        return out;
    }

    @Test
    void canonicalJsonAndSignatureVector() throws Exception {
        BackupManifest m = elsa();
        m.unprotected().put("key-fingerprint", "12:b9");
        m.setSignature("ignored");
        String ones = "01".repeat(32);
        String twos = "02".repeat(32);
        assertEquals("{\"backup-id\":\"elsa\",\"backup-time\":1593179765,\"backup-type\":\"host\",\"files\":["
                + "{\"crypt-mode\":\"encrypt\",\"csum\":\"" + ones + "\",\"filename\":\"test1.img.fidx\",\"size\":200},"
                + "{\"crypt-mode\":\"none\",\"csum\":\"" + twos + "\",\"filename\":\"abc.blob\",\"size\":200}]}",
                s(m.canonicalJson()));
        byte[] key = HexFormat.of().parseHex("28cdb1a3bef39396c3860e00d448fe7a0efd8244486ab6feb30457681d31597e");
        byte[] idKey = pbkdf2(key, "_id_key".getBytes(StandardCharsets.US_ASCII), 10);
        assertEquals("d7b446fb7db081662081d4b40fedd858a1d6307a5aff4ecff7d5bf4fd35679e9",
                HexFormat.of().formatHex(hmac(idKey, m.canonicalJson())));
    }

    @Test
    void prettyJsonMatchesSerde() {
        BackupManifest m = new BackupManifest(BackupType.VM, "100", 1700000000L);
        m.addFile(new FileEntry("disk.img.fidx", CryptMode.NONE, 9449529, ONES));
        String expected = """
                {
                  "backup-id": "100",
                  "backup-time": 1700000000,
                  "backup-type": "vm",
                  "files": [
                    {
                      "crypt-mode": "none",
                      "csum": "%s",
                      "filename": "disk.img.fidx",
                      "size": 9449529
                    }
                  ],
                  "signature": null,
                  "unprotected": {}
                }""".formatted("01".repeat(32));
        assertEquals(expected, s(m.toJson()));
        BackupManifest none = new BackupManifest(BackupType.CT, "x", 0);
        assertTrue(s(none.toJson()).contains("\"files\": [],"), s(none.toJson()));
    }

    @Test
    void unprotectedKeysAreSortedAndNestedObjectsPretty() throws Exception {
        BackupManifest m = elsa();
        m.unprotected().put("notes", "a\u0001b\"c\\d/e\u00e9\n");
        m.unprotected().putObject("chunk_upload_stats").put("size", 5).put("count", 1);
        m.unprotected().put("key-fingerprint", "aa:bb");
        m.setSignature("abcd");
        String json = s(m.toJson());
        assertTrue(json.contains("""
                  "signature": "abcd",
                  "unprotected": {
                    "chunk_upload_stats": {
                      "count": 1,
                      "size": 5
                    },
                    "key-fingerprint": "aa:bb",
                    "notes": "a\\u0001b\\"c\\\\d/e\u00e9\\n"
                  }
                }"""), json);
        BackupManifest back = BackupManifest.parse(m.toJson(), "m");
        assertArrayEquals(m.toJson(), back.toJson());
        assertEquals("abcd", back.signature());
        assertEquals("a\u0001b\"c\\d/e\u00e9\n", back.unprotected().get("notes").textValue());
    }

    @Test
    void parseAndBlobRoundTrip() throws Exception {
        BackupManifest m = elsa();
        DataBlob blob = m.toBlob();
        assertTrue(blob.isCompressed());
        BackupManifest r = BackupManifest.fromBlob(DataBlob.wrap(blob.raw(), "index.json.blob"), "index.json.blob");
        assertEquals(BackupType.HOST, r.backupType());
        assertEquals("elsa", r.backupId());
        assertEquals(1593179765L, r.backupTime());
        assertEquals(m.files(), r.files());
        assertEquals(CryptMode.ENCRYPT, r.file("test1.img.fidx").orElseThrow().cryptMode());
        assertTrue(r.file("nope").isEmpty());
        assertNull(r.signature());
        assertEquals(0, r.unprotected().size());
        assertArrayEquals(m.toJson(), r.toJson());
        assertThrows(IllegalArgumentException.class,
                () -> m.addFile(new FileEntry("abc.blob", CryptMode.NONE, 1, ONES)));
        assertThrows(UnsupportedOperationException.class, () -> m.files().clear());
    }

    @Test
    void canonicalRejectsNull() {
        BackupManifest m = elsa();
        assertTrue(s(m.canonicalJson()).startsWith("{\"backup-id\""));
        // nulls inside unprotected do not matter: it is not covered
        m.unprotected().putNull("x");
        assertTrue(s(m.canonicalJson()).endsWith("]}"));
        assertThrows(IllegalArgumentException.class,
                () -> SerdeJson.canonical(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode().putNull("a")));
    }

    private static void corrupt(String json, String mustContain) {
        var e = assertThrows(CorruptDataException.class,
                () -> BackupManifest.parse(json.getBytes(StandardCharsets.UTF_8), "snap/index.json.blob"));
        assertTrue(e.getMessage().startsWith("snap/index.json.blob: "), e.getMessage());
        assertTrue(e.getMessage().contains(mustContain), e.getMessage());
    }

    @Test
    void corruptManifests() {
        String f = "\"files\":[{\"crypt-mode\":\"none\",\"csum\":\"" + "02".repeat(32) + "\",\"filename\":\"a.blob\",\"size\":1}]";
        corrupt("{\"backup-type\":\"vm\",", "invalid manifest JSON");
        corrupt("not json", "invalid manifest JSON");
        corrupt("{} {}", "invalid manifest JSON");
        corrupt("[1]", "not a JSON object");
        corrupt("{\"backup-type\":\"vm\",\"backup-time\":1," + f + "}", "backup-id");
        corrupt("{\"backup-id\":\"1\",\"backup-time\":1," + f + "}", "backup-type");
        corrupt("{\"backup-type\":\"xx\",\"backup-id\":\"1\",\"backup-time\":1," + f + "}", "unknown backup type 'xx'");
        corrupt("{\"backup-type\":\"vm\",\"backup-id\":\"1\",\"backup-time\":\"1\"," + f + "}", "backup-time");
        corrupt("{\"backup-type\":\"vm\",\"backup-id\":\"1\",\"backup-time\":1.5," + f + "}", "backup-time");
        corrupt("{\"backup-type\":\"vm\",\"backup-id\":1,\"backup-time\":1," + f + "}", "backup-id");
        corrupt("{\"backup-type\":\"vm\",\"backup-id\":\"1\",\"backup-time\":1}", "files");
        corrupt("{\"backup-type\":\"vm\",\"backup-id\":\"1\",\"backup-time\":1,\"files\":{}}", "files");
        corrupt("{\"backup-type\":\"vm\",\"backup-id\":\"1\",\"backup-time\":1," + f.replace("\"size\":1", "\"size\":\"1\"") + "}", "size");
        corrupt("{\"backup-type\":\"vm\",\"backup-id\":\"1\",\"backup-time\":1," + f.replace("none", "weird") + "}", "crypt mode");
        corrupt("{\"backup-type\":\"vm\",\"backup-id\":\"1\",\"backup-time\":1," + f.replace("0202", "zz02") + "}", "digest");
        corrupt("{\"backup-type\":\"vm\",\"backup-id\":\"1\",\"backup-time\":1," + f + ",\"signature\":5}", "signature");
        corrupt("{\"backup-type\":\"vm\",\"backup-id\":\"1\",\"backup-time\":1," + f + ",\"unprotected\":[]}", "unprotected");
    }

    @Test
    void cryptModeText() {
        assertEquals(CryptMode.SIGN_ONLY, CryptMode.parse("sign-only"));
        assertEquals("encrypt", CryptMode.ENCRYPT.text());
        var e = assertThrows(IllegalArgumentException.class, () -> CryptMode.parse("xx"));
        assertTrue(e.getMessage().contains("'xx'"));
    }
}
