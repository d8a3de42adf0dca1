package org.jpbs.core.realclient;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.crypto.Fingerprint;
import org.jpbs.core.crypto.Kdf;
import org.jpbs.core.crypto.KeyConfig;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CryptoException;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real client's encrypted captures (vectors/real-client, {@code --keyfile keys/key-kdf-none.json})
 * decrypt with its key files: every chunk's digest is SHA-256(plaintext ‖ id_key), the image
 * chunks are the documented input, the manifests carry the key's fingerprint and their
 * signatures verify; the scrypt key file opens with its passphrase.
 */
class RealClientEncryptedTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Path root;
    private static CryptConfig key;

    @BeforeAll
    static void locate() throws Exception {
        root = SharedVectors.require("vectors/real-client/keys").getParent();
        Path kf = root.resolve("keys/key-kdf-none.json");
        KeyConfig kc = KeyConfig.parse(Files.readAllBytes(kf), kf.toString());
        assertEquals(Kdf.NONE, kc.kdf());
        key = kc.decrypt(() -> {
            throw new AssertionError("no passphrase for kdf none");
        }, kf.toString());
        assertEquals(Fingerprint.parse("92:13:c0:9e:88:1a:1d:fe:9d:f8:a0:30:62:34:e3:1e:96:1d:92:8a:79:66:a0:5b:df:eb:36:3b:05:99:45:8f"),
                key.fingerprint());
    }

    @Test
    void scryptKeyFileOpensWithItsPassphrase() throws Exception {
        Path kf = root.resolve("keys/key-kdf-scrypt.json");
        KeyConfig kc = KeyConfig.parse(Files.readAllBytes(kf), kf.toString());
        assertEquals(Kdf.SCRYPT, kc.kdf());
        assertEquals("jpbs-test passphrase", kc.hint());
        CryptConfig c = kc.decrypt(() -> "jpbs-test".getBytes(StandardCharsets.UTF_8), kf.toString());
        assertEquals(kc.fingerprint(), c.fingerprint());
        assertEquals("09:8d:11:7f:51:53:4c:7a", c.fingerprint().shortForm());
        var e = assertThrows(CryptoException.class, () -> kc.decrypt(() -> "jpbs-tesT".getBytes(StandardCharsets.UTF_8), "k"));
        assertTrue(e.getMessage().contains("wrong passphrase? (passphrase hint: jpbs-test passphrase)"), e.getMessage());
        // re-stored with our writer, the same bytes come back as the same key file
        assertEquals(kc, KeyConfig.parse(kc.toJson(), "again"));
    }

    @Test
    void imageChunksDecryptToTheDocumentedInput() throws Exception {
        Path dir = root.resolve("img-encrypted");
        JsonNode idx = JSON.readTree(dir.resolve("indexes/disk.img.fidx.json").toFile());
        ByteArrayOutputStream image = new ByteArrayOutputStream();
        for (JsonNode up : idx.get("uploaded-chunks")) {
            String hex = up.get("digest").asText();
            int size = Integer.parseInt(up.get("size").asText());
            byte[] raw = Files.readAllBytes(dir.resolve("chunks").resolve(hex));
            assertEquals(Integer.parseInt(up.get("encoded-size").asText()), raw.length);
            DataBlob b = DataBlob.wrap(raw, hex);
            assertTrue(b.isEncrypted());
            byte[] plain = b.decode(hex, size, key);
            assertEquals(Digest.parse(hex), key.computeDigest(plain, 0, plain.length), "digest of " + hex);
            image.write(plain);
        }
        byte[] img = image.toByteArray();
        assertEquals(9_449_529, img.length);
        assertEquals(Digest.parse("b6b0ecf32d75d98ac9e9784c8aa635262b9a4d7874f29d26bee69ef17f8386ed"), Digest.sha256(img));
        // spot checks of the three regions: seq output, zeros, AES-128-CTR keystream
        assertTrue(new String(img, 0, 20, StandardCharsets.US_ASCII).startsWith("1\n2\n3\n4\n"));
        assertTrue(Arrays.equals(new byte[4 << 20], 0, 4 << 20, img, 4 << 20, 8 << 20));
        Cipher ctr = Cipher.getInstance("AES/CTR/NoPadding");
        ctr.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[16], "AES"), new IvParameterSpec(new byte[16]));
        byte[] ks = ctr.doFinal(new byte[64]);
        assertArrayEquals(ks, Arrays.copyOfRange(img, 8 << 20, (8 << 20) + 64));
    }

    @Test
    void manifestsAreSignedWithTheKey() throws Exception {
        for (String c : new String[] {"img-encrypted", "dir-encrypted"}) {
            Path p = root.resolve(c).resolve("blobs/index.json.blob");
            BackupManifest m = BackupManifest.fromBlob(DataBlob.wrap(Files.readAllBytes(p), p.toString()), p.toString());
            assertEquals(key.fingerprint(), m.keyFingerprint().orElseThrow(), c);
            assertTrue(m.signature() != null && m.signature().length() == 64, c);
            m.verify(key, c);
            for (FileEntry f : m.files()) {
                assertEquals(CryptMode.ENCRYPT, f.cryptMode(), c + " " + f.filename());
            }
            // the signature is over exactly what we compute
            assertEquals(m.signature(), java.util.HexFormat.of().formatHex(key.authTag(m.canonicalJson())));
            CryptConfig other = CryptConfig.of(new byte[32]);
            var e = assertThrows(CryptoException.class, () -> m.verify(other, c));
            assertTrue(e.getMessage().contains(key.fingerprint().toString()) && e.getMessage().contains(other.fingerprint().toString()));
        }
    }

    @Test
    void directoryChunksDecryptAndMatchTheirDigests() throws Exception {
        Path dir = root.resolve("dir-encrypted/chunks");
        int n = 0;
        try (var files = Files.list(dir)) {
            for (Path f : files.sorted().toList()) {
                String hex = f.getFileName().toString();
                byte[] plain = DataBlob.wrap(Files.readAllBytes(f), hex).decode(hex, -1, key);
                assertEquals(Digest.parse(hex), key.computeDigest(plain, 0, plain.length));
                n++;
            }
        }
        assertEquals(2, n);
    }
}
