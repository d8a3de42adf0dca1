package org.jpbs.server.http;

/**
 * Strict UTF-8 validation of a request body with the error text of Rust's
 * {@code std::str::Utf8Error}, which PBS's REST server puts after {@code "Request body not uft8: "}
 * (sic, PBS's spelling): {@code "invalid utf-8 sequence of N bytes from index I"} for a bad
 * sequence (N = the bytes Rust skips: 1..3), {@code "incomplete utf-8 byte sequence from index
 * I"} when the body ends inside a sequence. I is the length of the valid prefix. Overlong
 * forms, surrogates ({@code U+D800..DFFF}) and code points above {@code U+10FFFF} are invalid, as
 * in Rust. Stateless.
 */
final class Utf8Validation {
    private Utf8Validation() {}

    /** The Rust error text of the first invalid sequence, or null if {@code b} is valid UTF-8. */
    static String error(byte[] b) {
        int i = 0;
        int n = b.length;
        while (i < n) {
            int first = b[i] & 0xFF;
            if (first < 0x80) {
                i++;
                continue;
            }
            int width = first >= 0xC2 && first <= 0xDF ? 2 : first >= 0xE0 && first <= 0xEF ? 3
                    : first >= 0xF0 && first <= 0xF4 ? 4 : 0;
            if (width == 0) {
                return invalid(1, i);
            }
            if (i + 1 >= n) {
                return incomplete(i);
            }
            int second = b[i + 1] & 0xFF;
            boolean ok2 = switch (width) {
                case 2 -> isCont(second);
                case 3 -> first == 0xE0 ? second >= 0xA0 && second <= 0xBF
                        : first == 0xED ? second >= 0x80 && second <= 0x9F : isCont(second);
                default -> first == 0xF0 ? second >= 0x90 && second <= 0xBF
                        : first == 0xF4 ? second >= 0x80 && second <= 0x8F : isCont(second);
            };
            if (!ok2) {
                return invalid(1, i);
            }
            for (int k = 2; k < width; k++) {
                if (i + k >= n) {
                    return incomplete(i);
                }
                if (!isCont(b[i + k] & 0xFF)) {
                    return invalid(k, i);
                }
            }
            i += width;
        }
        return null;
    }

    private static boolean isCont(int x) {
        return (x & 0xC0) == 0x80;
    }

    private static String invalid(int len, int at) {
        return "invalid utf-8 sequence of " + len + " bytes from index " + at;
    }

    private static String incomplete(int at) {
        return "incomplete utf-8 byte sequence from index " + at;
    }
}
