package org.jpbs.core.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CryptoException;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The manifest signature vector of {@code vectors/README.md} (upstream {@code test_manifest_signature}). */
class ManifestSignatureTest {
    private static CryptConfig testKey;

    @BeforeAll
    static void deriveKey() {
        KeyDerivation scrypt = new KeyDerivation(Kdf.SCRYPT, 65536, 8, 1, 0, new byte[0]);
        byte[] key = scrypt.derive("test".getBytes(StandardCharsets.US_ASCII));
        assertEquals("28cdb1a3bef39396c3860e00d448fe7a0efd8244486ab6feb30457681d31597e", HexFormat.of().formatHex(key));
        testKey = CryptConfig.of(key);
    }

    private static BackupManifest elsa() {
        BackupManifest m = new BackupManifest(BackupType.HOST, "elsa", 1593179765L);
        byte[] ones = new byte[32];
        Arrays.fill(ones, (byte) 1);
        byte[] twos = new byte[32];
        Arrays.fill(twos, (byte) 2);
        m.addFile(new FileEntry("test1.img.fidx", CryptMode.ENCRYPT, 200, Digest.of(ones)));
        m.addFile(new FileEntry("abc.blob", CryptMode.NONE, 200, Digest.of(twos)));
        return m;
    }

    @Test
    void signatureVector() throws Exception {
        BackupManifest m = elsa();
        m.unprotected().put("note", "This is not protected by the signature.");
        m.sign(testKey);
        assertEquals("d7b446fb7db081662081d4b40fedd858a1d6307a5aff4ecff7d5bf4fd35679e9", m.signature());
        assertEquals("12:b9:b7:74:bb:3d:89:95:2b:97:cb:c2:82:f0:0c:14:2b:83:ba:7f:96:62:6a:a1:5a:44:9a:63:e8:91:fe:25",
                m.unprotected().get("key-fingerprint").asText());
        assertEquals(testKey.fingerprint(), m.keyFingerprint().orElseThrow());
        // survives serialisation and verifies after parsing
        BackupManifest back = BackupManifest.parse(m.toJson(), "test");
        back.verify(testKey, "test");
    }

    @Test
    void tamperedManifestOrOtherKeyIsRefused() throws Exception {
        BackupManifest m = elsa();
        m.sign(testKey);
        String json = new String(m.toJson(), StandardCharsets.UTF_8).replace("\"size\": 200", "\"size\": 201");
        BackupManifest tampered = BackupManifest.parse(json.getBytes(StandardCharsets.UTF_8), "t");
        var e = assertThrows(CryptoException.class, () -> tampered.verify(testKey, "host/elsa"));
        assertEquals("host/elsa: wrong signature in manifest", e.getMessage());

        CryptConfig other = CryptConfig.of(new byte[32]);
        var w = assertThrows(CryptoException.class, () -> m.verify(other, "host/elsa"));
        assertEquals("host/elsa: wrong key - manifest's key " + testKey.fingerprint()
                + " does not match provided key " + other.fingerprint(), w.getMessage());
        var missing = assertThrows(CryptoException.class, () -> m.checkFingerprint(null, "host/elsa"));
        assertTrue(missing.getMessage().contains("missing key - manifest was created with key " + testKey.fingerprint()));
        // an unsigned manifest is fine with any key or none
        elsa().verify(other, "x");
        elsa().checkFingerprint(null, "x");
    }
}
