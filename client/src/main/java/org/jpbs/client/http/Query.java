package org.jpbs.client.http;

import java.nio.charset.StandardCharsets;

/**
 * Builds a URL query string ({@code a=1&b=x}) in the order of the {@link #add} calls, with
 * every byte except the RFC 3986 unreserved characters percent-encoded (so a space is
 * {@code %20}, never {@code +}).
 */
public final class Query {
    private final StringBuilder sb = new StringBuilder();

    /** An empty query. */
    public static Query of() {
        return new Query();
    }

    /** Adds {@code key=value}; {@code value} is formatted with {@link String#valueOf}. Null values are skipped. */
    public Query add(String key, Object value) {
        if (value == null) {
            return this;
        }
        if (!sb.isEmpty()) {
            sb.append('&');
        }
        sb.append(encode(key)).append('=').append(encode(String.valueOf(value)));
        return this;
    }

    /** Percent-encodes a string (UTF-8), keeping only {@code A-Z a-z 0-9 - . _ ~}. */
    public static String encode(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '.' || c == '_' || c == '~') {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return out.toString();
    }

    /** The encoded query, without a leading {@code ?}. */
    @Override
    public String toString() {
        return sb.toString();
    }
}
