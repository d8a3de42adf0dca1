package org.jpbs.server.auth;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Authentication tickets and CSRF prevention tokens ({@code docs/protocol.md#authentication}).
 *
 * <p>Ticket text as PBS: {@code PBS:<userid>:<issue time, 8 upper-case hex>::<signature>}
 * ({@code :} in the userid percent-encoded), valid for {@link #LIFETIME_SECONDS} and accepted up
 * to {@link #MAX_CLOCK_SKEW_SECONDS} early. CSRF token as PBS:
 * {@code <time, 8 upper-case hex>:<base64 (no padding) HMAC>} over {@code "<TIME>:<userid>:"}.
 * Both are opaque to clients.
 *
 * <p>Differs from PBS: PBS signs tickets with an RSA key ({@code authkey.key}) and keys the
 * CSRF HMAC with {@code csrf.key}; jpbs needs no third party to verify its tickets, so it uses
 * one random 32-byte secret in {@code <config>/authkey.key} (base64, mode 0600, created on
 * first start) and signs tickets with HMAC-SHA256 under a key derived from it
 * ({@code HMAC(secret, "jpbs ticket v1")}); CSRF tokens use {@code HMAC(secret, "jpbs csrf v1")}.
 * Signatures are standard base64 without padding. Thread-safe.
 */
public final class Tickets {
    /** File name of the secret in the config directory. */
    public static final String KEY_FILE = "authkey.key";
    /** Ticket and CSRF token lifetime: 2 hours. */
    public static final long LIFETIME_SECONDS = 7200;
    /** How far in the future a ticket time may lie (clock skew between cluster nodes). */
    public static final long MAX_CLOCK_SKEW_SECONDS = 300;
    private static final String PREFIX = "PBS:";
    private static final Base64.Encoder B64 = Base64.getEncoder().withoutPadding();

    private final byte[] ticketKey;
    private final byte[] csrfKey;

    private Tickets(byte[] secret) {
        this.ticketKey = hmac(secret, "jpbs ticket v1".getBytes(StandardCharsets.UTF_8));
        this.csrfKey = hmac(secret, "jpbs csrf v1".getBytes(StandardCharsets.UTF_8));
    }

    /** Tickets under a given secret (tests). */
    public static Tickets withSecret(byte[] secret) {
        return new Tickets(secret.clone());
    }

    /**
     * Loads {@code <configDir>/authkey.key}, creating it (32 random bytes, mode 0600) if missing.
     *
     * @throws IOException if it cannot be read or created, or is not base64 of at least 32 bytes
     */
    public static Tickets loadOrCreate(Path configDir) throws IOException {
        Files.createDirectories(configDir);
        Path key = configDir.resolve(KEY_FILE);
        if (!Files.exists(key)) {
            byte[] secret = new byte[32];
            new SecureRandom().nextBytes(secret);
            Path tmp = ConfigFiles.writeTemp(key, (Base64.getEncoder().encodeToString(secret) + "\n")
                    .getBytes(StandardCharsets.US_ASCII), ConfigFiles.MODE_0600);
            try {
                Files.createLink(key, tmp); // fails if another process created it meanwhile
            } catch (FileAlreadyExistsException e) {
                // use theirs
            } finally {
                Files.deleteIfExists(tmp);
            }
        }
        byte[] secret;
        try {
            secret = Base64.getDecoder().decode(Files.readString(key, StandardCharsets.US_ASCII).strip());
        } catch (IllegalArgumentException e) {
            throw new IOException(key + ": not a base64 key: " + e.getMessage(), e);
        }
        if (secret.length < 32) {
            throw new IOException(key + ": key too short (" + secret.length + " bytes, need 32)");
        }
        return new Tickets(secret);
    }

    /** A new ticket for {@code user} issued at {@code now} (epoch seconds). */
    public String createTicket(Authid user, long now) {
        String data = PREFIX + user.toString().replace(":", "%3A") + ":" + hex8(now);
        return data + "::" + B64.encodeToString(hmac(ticketKey, (data + "::").getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Checks a ticket's signature and age.
     *
     * @return the user it was issued to
     * @throws IllegalArgumentException the reason, one line ({@code "invalid ticket"},
     *                                  {@code "ticket expired"}, ...)
     */
    public Authid verifyTicket(String ticket, long now) {
        if (ticket == null || !ticket.startsWith(PREFIX)) {
            throw new IllegalArgumentException("ticket with invalid prefix");
        }
        int sep = ticket.lastIndexOf("::");
        if (sep < 0) {
            throw new IllegalArgumentException("invalid ticket");
        }
        String data = ticket.substring(0, sep);
        byte[] sig;
        try {
            sig = Base64.getDecoder().decode(ticket.substring(sep + 2));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid ticket signature");
        }
        if (!MessageDigest.isEqual(sig, hmac(ticketKey, (data + "::").getBytes(StandardCharsets.UTF_8)))) {
            throw new IllegalArgumentException("invalid ticket signature");
        }
        int colon = data.lastIndexOf(':');
        String user = data.substring(PREFIX.length(), colon);
        long time = parseHex8(data.substring(colon + 1));
        checkAge(time, now, "ticket");
        return Authid.parseUser(URLDecoder.decode(user.replace("+", "%2B"), StandardCharsets.UTF_8));
    }

    /** The CSRF prevention token for {@code user}'s ticket session at {@code now}. */
    public String createCsrfToken(Authid user, long now) {
        String t = hex8(now);
        return t + ":" + B64.encodeToString(hmac(csrfKey, (t + ":" + user + ":").getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Checks a CSRF prevention token.
     *
     * @throws IllegalArgumentException {@code "invalid CSRF prevention token"} or {@code "CSRF prevention token expired"}
     */
    public void verifyCsrfToken(String token, Authid user, long now) {
        int colon = token == null ? -1 : token.indexOf(':');
        if (colon != 8) {
            throw new IllegalArgumentException("invalid CSRF prevention token");
        }
        String t = token.substring(0, colon);
        long time;
        byte[] sig;
        try {
            time = parseHex8(t);
            sig = Base64.getDecoder().decode(token.substring(colon + 1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid CSRF prevention token");
        }
        if (!MessageDigest.isEqual(sig, hmac(csrfKey, (t + ":" + user + ":").getBytes(StandardCharsets.UTF_8)))) {
            throw new IllegalArgumentException("invalid CSRF prevention token");
        }
        checkAge(time, now, "CSRF prevention token");
    }

    private static void checkAge(long time, long now, String what) {
        long age = now - time;
        if (age < -MAX_CLOCK_SKEW_SECONDS) {
            throw new IllegalArgumentException(what + " timestamp is in the future");
        }
        if (age > LIFETIME_SECONDS) {
            throw new IllegalArgumentException(what + " expired");
        }
    }

    private static String hex8(long t) {
        return String.format(Locale.ROOT, "%08X", t);
    }

    private static long parseHex8(String s) {
        if (s.length() != 8) {
            throw new IllegalArgumentException("invalid ticket time");
        }
        try {
            return Long.parseLong(s, 16);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid ticket time");
        }
    }

    private static byte[] hmac(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
