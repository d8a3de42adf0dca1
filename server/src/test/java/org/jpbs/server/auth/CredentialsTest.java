package org.jpbs.server.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Password hashes, tickets and CSRF tokens ({@code docs/protocol.md#authentication}). */
class CredentialsTest {
    static final long NOW = 1_800_000_000L;
    static final Authid BENCH = Authid.parse("bench@pbs");
    static final byte[] SECRET = new byte[32];

    static {
        Arrays.fill(SECRET, (byte) 7);
    }

    @TempDir
    Path tmp;

    @Test
    void passwordHashesVerifyAndAreSalted() {
        String h = PasswordHash.hash("correct horse", 1000);
        assertTrue(h.matches("\\$pbkdf2-sha256\\$1000\\$[A-Za-z0-9+/]{22}\\$[A-Za-z0-9+/]{43}"), h);
        assertTrue(PasswordHash.verify("correct horse", h));
        assertFalse(PasswordHash.verify("correct horsE", h));
        assertFalse(PasswordHash.verify("", h));
        assertNotEquals(h, PasswordHash.hash("correct horse", 1000), "random salt");
        assertFalse(PasswordHash.verify("x", "$6$rounds=5000$salt$abc"), "crypt(3) hashes are not accepted");
        assertFalse(PasswordHash.verify("x", "$pbkdf2-sha256$x$y$z"));
        assertFalse(PasswordHash.verify("x", null));
        assertTrue(PasswordHash.hash("p", PasswordHash.TOKEN_ITERATIONS).startsWith("$pbkdf2-sha256$10000$"));
    }

    @Test
    void ticketsHaveThePbsFormAndExpire() {
        Tickets t = Tickets.withSecret(SECRET);
        String ticket = t.createTicket(BENCH, NOW);
        assertTrue(ticket.matches("PBS:bench@pbs:6B49D200::[A-Za-z0-9+/]{43}"), ticket);
        assertEquals(BENCH, t.verifyTicket(ticket, NOW));
        assertEquals(BENCH, t.verifyTicket(ticket, NOW + 7200));
        assertEquals(BENCH, t.verifyTicket(ticket, NOW - 300), "clock skew");
        assertEquals("ticket expired", assertThrows(IllegalArgumentException.class,
                () -> t.verifyTicket(ticket, NOW + 7201)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> t.verifyTicket(ticket, NOW - 301));
        String forged = ticket.replace("PBS:bench@pbs:", "PBS:root@pam:");
        assertEquals("invalid ticket signature",
                assertThrows(IllegalArgumentException.class, () -> t.verifyTicket(forged, NOW)).getMessage());
        byte[] other = SECRET.clone();
        other[0] ^= 1;
        assertThrows(IllegalArgumentException.class, () -> Tickets.withSecret(other).verifyTicket(ticket, NOW));
        assertThrows(IllegalArgumentException.class, () -> t.verifyTicket("PVE:bench@pbs:6B49D200::x", NOW));
        assertThrows(IllegalArgumentException.class, () -> t.verifyTicket("garbage", NOW));
    }

    @Test
    void csrfTokensBindUserAndTime() {
        Tickets t = Tickets.withSecret(SECRET);
        String csrf = t.createCsrfToken(BENCH, NOW);
        assertTrue(csrf.matches("6B49D200:[A-Za-z0-9+/]{43}"), csrf);
        t.verifyCsrfToken(csrf, BENCH, NOW + 100);
        assertThrows(IllegalArgumentException.class, () -> t.verifyCsrfToken(csrf, Authid.parse("other@pbs"), NOW));
        assertThrows(IllegalArgumentException.class, () -> t.verifyCsrfToken(csrf, BENCH, NOW + 7201));
        assertThrows(IllegalArgumentException.class, () -> t.verifyCsrfToken("6B49D201" + csrf.substring(8), BENCH, NOW));
        assertThrows(IllegalArgumentException.class, () -> t.verifyCsrfToken(null, BENCH, NOW));
    }

    @Test
    void theKeyIsCreatedOnceWithMode0600() throws Exception {
        Tickets a = Tickets.loadOrCreate(tmp);
        Path key = tmp.resolve(Tickets.KEY_FILE);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(key)));
        byte[] before = Files.readAllBytes(key);
        Tickets b = Tickets.loadOrCreate(tmp);
        assertArrayEquals(before, Files.readAllBytes(key));
        assertEquals(BENCH, b.verifyTicket(a.createTicket(BENCH, NOW), NOW), "same key after a restart");
        Files.writeString(key, "dG9vIHNob3J0\n", StandardCharsets.US_ASCII);
        assertThrows(java.io.IOException.class, () -> Tickets.loadOrCreate(tmp));
        try (var s = Files.list(tmp)) {
            assertEquals(1, s.count(), "no temporary files left");
        }
    }
}
