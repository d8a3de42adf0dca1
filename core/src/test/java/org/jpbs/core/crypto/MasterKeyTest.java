package org.jpbs.core.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.errors.CryptoException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** RSA master keys: rsa-encrypted.key.blob round trip and PEM files. */
class MasterKeyTest {
    private static KeyPair pair;

    @BeforeAll
    static void generate() {
        pair = MasterKey.generate(3072); // enough for a key file; 4096 is the real default
    }

    @Test
    void keyBlobRoundTrip() throws Exception {
        CryptConfig c = CryptConfig.of(CryptConfig.randomKey());
        DataBlob blob = MasterKey.encryptKey(pair.getPublic(), c, 1_700_000_000L);
        assertFalse(blob.isEncrypted());
        assertFalse(blob.isCompressed());
        assertEquals(12 + 384, blob.rawLength());
        KeyConfig back = MasterKey.decryptKey(pair.getPrivate(), blob.raw(), MasterKey.BLOB_NAME);
        assertEquals(Kdf.NONE, back.kdf());
        assertEquals(1_700_000_000L, back.created());
        assertArrayEquals(c.key(), back.decrypt(() -> null, "k").key());
        KeyPair other = MasterKey.generate(3072);
        assertThrows(CryptoException.class, () -> MasterKey.decryptKey(other.getPrivate(), blob.raw(), "b"));
    }

    @Test
    void smallRsaKeysAreRefusedClearly() {
        KeyPair small = MasterKey.generate(2048);
        var e = assertThrows(IllegalArgumentException.class,
                () -> MasterKey.encryptKey(small.getPublic(), CryptConfig.of(new byte[32]), 0));
        assertTrue(e.getMessage().contains("too small"), e.getMessage());
    }

    @Test
    void pemRoundTrip() throws Exception {
        String pub = MasterKey.publicPem(pair.getPublic());
        assertTrue(pub.startsWith("-----BEGIN PUBLIC KEY-----"), pub);
        PublicKey p = MasterKey.readPublicPem(pub.getBytes(StandardCharsets.US_ASCII), "pub.pem");
        assertEquals(pair.getPublic(), p);
        char[] pw = "master secret".toCharArray();
        String priv = MasterKey.encryptedPrivatePem(pair.getPrivate(), pw);
        assertTrue(priv.startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----"), priv);
        assertTrue(MasterKey.looksLikePrivatePem(priv));
        PrivateKey k = MasterKey.readPrivatePem(priv.getBytes(StandardCharsets.US_ASCII), pw, "priv.pem");
        assertArrayEquals(pair.getPrivate().getEncoded(), k.getEncoded());
        var e = assertThrows(CryptoException.class,
                () -> MasterKey.readPrivatePem(priv.getBytes(StandardCharsets.US_ASCII), "nope".toCharArray(), "priv.pem"));
        assertTrue(e.getMessage().startsWith("priv.pem: cannot decrypt the master private key"), e.getMessage());
    }
}
