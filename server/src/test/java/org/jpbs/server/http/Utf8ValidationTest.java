package org.jpbs.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The texts of Rust's {@code Utf8Error} (what PBS puts after "Request body not uft8: ") for the
 * kinds of bad input: a stray byte, a bad second byte, a bad later byte (the length Rust
 * reports), a truncated sequence, overlong forms, surrogates, code points above U+10FFFF.
 */
class Utf8ValidationTest {
    static byte[] b(int... v) {
        byte[] out = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (byte) v[i];
        }
        return out;
    }

    @Test
    void validInputHasNoError() {
        assertNull(Utf8Validation.error(new byte[0]));
        assertNull(Utf8Validation.error("a=1&b=caf\u00e9 \u20ac \ud83d\ude00 \u07ff \uffff \udbff\udfff"
                .getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void invalidSequencesAsRustReportsThem() {
        assertEquals("invalid utf-8 sequence of 1 bytes from index 1", Utf8Validation.error(b('a', 0xFF, 'b')));
        assertEquals("invalid utf-8 sequence of 1 bytes from index 0", Utf8Validation.error(b(0x80)));
        assertEquals("invalid utf-8 sequence of 1 bytes from index 0", Utf8Validation.error(b(0xC0, 0x80)), "overlong");
        assertEquals("invalid utf-8 sequence of 1 bytes from index 0", Utf8Validation.error(b(0xE0, 0x80, 0x80)),
                "overlong 3-byte");
        assertEquals("invalid utf-8 sequence of 1 bytes from index 0", Utf8Validation.error(b(0xED, 0xA0, 0x80)),
                "surrogate");
        assertEquals("invalid utf-8 sequence of 1 bytes from index 0", Utf8Validation.error(b(0xF4, 0x90, 0x80, 0x80)),
                "above U+10FFFF");
        assertEquals("invalid utf-8 sequence of 1 bytes from index 0", Utf8Validation.error(b(0xF5, 0x80, 0x80, 0x80)));
        assertEquals("invalid utf-8 sequence of 1 bytes from index 0", Utf8Validation.error(b(0xE2, 0x28, 0xA1)));
        assertEquals("invalid utf-8 sequence of 2 bytes from index 0", Utf8Validation.error(b(0xE2, 0x82, 0x28)));
        assertEquals("invalid utf-8 sequence of 3 bytes from index 2", Utf8Validation.error(b('o', 'k', 0xF0, 0x9F, 0x98, 0x28)));
    }

    @Test
    void truncatedSequencesAreIncomplete() {
        assertEquals("incomplete utf-8 byte sequence from index 0", Utf8Validation.error(b(0xC3)));
        assertEquals("incomplete utf-8 byte sequence from index 1", Utf8Validation.error(b('x', 0xE2, 0x82)));
        assertEquals("incomplete utf-8 byte sequence from index 0", Utf8Validation.error(b(0xF0, 0x9F, 0x98)));
    }
}
