package org.jpbs.core.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.errors.CryptoException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** Key files ({@code docs/formats.md#key-files}): round trips for the three kdf choices, wrong passphrases, corrupt files. */
class KeyConfigTest {
    private static final byte[] PW = "correct horse".getBytes(StandardCharsets.UTF_8);

    private static byte[] key(long seed) {
        byte[] k = new byte[32];
        new Random(seed).nextBytes(k);
        return k;
    }

    @ParameterizedTest
    @EnumSource(Kdf.class)
    void roundTripEveryKdf(Kdf kdf) throws Exception {
        byte[] raw = key(kdf.ordinal());
        KeyConfig kc = KeyConfig.withPassphrase(raw, PW, kdf).withHint(kdf == Kdf.NONE ? null : "the usual");
        assertEquals(kdf, kc.kdf());
        byte[] json = kc.toJson();
        String text = new String(json, StandardCharsets.UTF_8);
        assertTrue(text.startsWith("{\"kdf\":"), text);
        assertTrue(text.contains("\"fingerprint\":\"" + CryptConfig.of(raw).fingerprint() + "\""), text);
        switch (kdf) {
            case NONE -> assertTrue(text.startsWith("{\"kdf\":null,\"created\":"), text);
            case SCRYPT -> assertTrue(text.startsWith("{\"kdf\":{\"Scrypt\":{\"n\":65536,\"r\":8,\"p\":1,\"salt\":\""), text);
            case PBKDF2 -> assertTrue(text.startsWith("{\"kdf\":{\"PBKDF2\":{\"iter\":65535,\"salt\":\""), text);
        }
        KeyConfig back = KeyConfig.parse(json, "k.json");
        assertEquals(kc, back);
        CryptConfig c = back.decrypt(() -> PW, "k.json");
        assertArrayEquals(raw, c.key());
        if (kdf != Kdf.NONE) {
            assertEquals(64, kc.data().length);
            var e = assertThrows(CryptoException.class,
                    () -> back.decrypt(() -> "wrong passphrase".getBytes(StandardCharsets.UTF_8), "k.json"));
            assertEquals("k.json: unable to decrypt the key - wrong passphrase? (passphrase hint: the usual)", e.getMessage());
            var s = assertThrows(CryptoException.class, () -> back.decrypt(() -> new byte[4], "k.json"));
            assertTrue(s.getMessage().contains("passphrase is too short"), s.getMessage());
        } else {
            assertArrayEquals(raw, kc.data());
            assertNull(kc.derivation());
        }
    }

    @Test
    void storedFingerprintMustMatch() throws Exception {
        KeyConfig kc = KeyConfig.withoutPassword(key(7));
        KeyConfig wrong = new KeyConfig(null, kc.created(), kc.modified(), kc.data(),
                CryptConfig.of(key(8)).fingerprint(), null);
        var e = assertThrows(CryptoException.class, () -> wrong.decrypt(() -> PW, "w.json"));
        assertTrue(e.getMessage().startsWith("w.json: key file contains the wrong fingerprint"), e.getMessage());
    }

    @Test
    void timesAreRfc3339AndParsedInAnyOffset() throws Exception {
        String json = "{\"kdf\":null,\"created\":\"2024-06-05T16:24:36+02:00\",\"modified\":\"2024-06-05T14:24:36Z\","
                + "\"data\":\"s0E9V9Z2UzL5Q9ex97MU1WpFp+afduyXAKlE7hsEnxw=\"}";
        KeyConfig kc = KeyConfig.parse(json.getBytes(StandardCharsets.UTF_8), "t");
        assertEquals(1717597476L, kc.created());
        assertEquals(kc.created(), kc.modified());
        assertNull(kc.fingerprint());
        assertTrue(KeyConfig.formatTime(1717597476L).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d[+-]\\d\\d:\\d\\d"));
    }

    @Test
    void corruptFilesNameTheField() {
        var e = assertThrows(CorruptDataException.class, () -> KeyConfig.parse("[]".getBytes(), "x.json"));
        assertTrue(e.getMessage().startsWith("x.json: not a key file"), e.getMessage());
        var f = assertThrows(CorruptDataException.class, () -> KeyConfig.parse(
                "{\"kdf\":{\"Argon\":{}},\"created\":\"2024-06-05T16:24:36+02:00\",\"modified\":\"2024-06-05T16:24:36+02:00\",\"data\":\"\"}".getBytes(),
                "x.json"));
        assertTrue(f.getMessage().contains("'kdf'"), f.getMessage());
        var g = assertThrows(CorruptDataException.class, () -> KeyConfig.parse(
                "{\"kdf\":null,\"created\":\"yesterday\",\"modified\":\"2024-06-05T16:24:36+02:00\",\"data\":\"\"}".getBytes(),
                "x.json"));
        assertTrue(g.getMessage().contains("'created'"), g.getMessage());
    }

    @Test
    void prettyJsonForPaperKeys() {
        KeyConfig kc = KeyConfig.withoutPassword(key(3));
        String pretty = kc.toPrettyJson();
        assertTrue(pretty.startsWith("{\n  \"kdf\": null,\n  \"created\": \""), pretty);
        assertTrue(pretty.endsWith("\"\n}"), pretty);
    }
}
