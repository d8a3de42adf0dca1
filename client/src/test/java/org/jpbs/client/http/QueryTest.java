package org.jpbs.client.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class QueryTest {
    @Test
    void encodesEverythingButUnreserved() {
        assertEquals("a=1&b=x%20y%2Bz&c=%C3%A4%2F~._-&e=true",
                Query.of().add("a", 1).add("b", "x y+z").add("c", "ä/~._-").add("d", null).add("e", true).toString());
        assertEquals("", Query.of().toString());
        assertEquals("ns%2Fx", Query.encode("ns/x"));
    }

    @Test
    void fingerprintsAreValidated() {
        String fp = "AA:" + "0b:".repeat(30) + "Cc";
        assertEquals(fp.toLowerCase(), TlsTrust.pinned(fp).pinnedFingerprint());
        assertEquals(null, TlsTrust.pinned(" ").pinnedFingerprint());
        assertEquals(null, TlsTrust.system().pinnedFingerprint());
        assertThrows(IllegalArgumentException.class, () -> TlsTrust.pinned(fp.replace(":", "")));
        assertThrows(IllegalArgumentException.class, () -> TlsTrust.pinned(fp + ":00"));
        assertThrows(IllegalArgumentException.class, () -> TlsTrust.pinned(fp.replace("Cc", "Cg")));
    }

    @Test
    void statusErrorsAreOneLine() {
        HttpStatusException e = new HttpStatusException("POST /finish", 400, "line one\nline two\n");
        assertEquals("POST /finish: server answered 400: line one; line two", e.getMessage());
        assertEquals(400, e.status());
        assertEquals("line one\nline two", e.serverMessage());
        Response ok = new Response(200, "application/json", "{\"data\":42}".getBytes());
        try {
            assertEquals(42, ok.data("x").asInt());
            assertEquals(true, new Response(200, null, new byte[0]).data("x").isNull());
        } catch (java.io.IOException ex) {
            throw new AssertionError(ex);
        }
        assertThrows(java.io.IOException.class, () -> new Response(200, null, "{}".getBytes()).data("x"));
        assertThrows(HttpStatusException.class, () -> new Response(404, null, "Path '/x' not found.".getBytes()).data("x"));
    }
}
