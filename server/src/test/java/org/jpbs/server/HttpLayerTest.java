package org.jpbs.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.jpbs.server.tls.ServerCertificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS identity, the REST fallback and the upgrade refusals ({@code docs/protocol.md#transport}, {@code docs/protocol.md#backup-upgrade}, {@code docs/api.md#conventions-as-pbs}, {@code docs/protocol.md#authentication}). */
class HttpLayerTest {
    private static final long T = 1_700_000_000L;
    private static final Map<String, String> AUTH = Map.of("Authorization", "PBSAPIToken " + TestServer.TOKEN);

    @TempDir
    Path tmp;

    @Test
    void certificateIsCreatedOncePinnedAndReused() throws Exception {
        String fp;
        try (TestServer s = TestServer.start(tmp, "store1"); RawHttps h = new RawHttps(s.port())) {
            fp = s.server.fingerprint();
            assertTrue(fp.matches("([0-9a-f]{2}:){31}[0-9a-f]{2}"), fp);
            assertEquals(fp, ServerCertificate.fingerprint(h.peerCertificate()));
            Path key = tmp.resolve("config/proxy.key");
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(key)));
            assertTrue(Files.readString(tmp.resolve("config/proxy.pem")).startsWith("-----BEGIN CERTIFICATE-----"));
        }
        try (TestServer s = TestServer.start(tmp, "store1")) {
            assertEquals(fp, s.server.fingerprint(), "the certificate is reused on the next start");
        }
        Path other = tmp.resolve("other");
        Files.createDirectories(other);
        assertNotEquals(fp, ServerCertificate.loadOrCreate(other).fingerprint());
    }

    @Test
    void restVersionAndUnknownPaths() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1"); RawHttps h = new RawHttps(s.port())) {
            RawHttps.Response r = h.request("GET", "/api2/json/version", AUTH, null);
            assertEquals(200, r.status());
            assertEquals("{\"data\":{\"release\":\"2\",\"repoid\":\"jpbs\",\"version\":\"3.1\"}}", r.text());
            assertEquals("application/json;charset=UTF-8", r.headers().get("content-type"));
            r = h.request("GET", "/api2/json/admin/datastore/golden/nosuch", AUTH, null);
            assertEquals(404, r.status());
            assertEquals("Path '/api2/json/admin/datastore/golden/nosuch' not found.", r.text());
            r = h.request("GET", "/api2/json/version", Map.of(), null);
            assertEquals(401, r.status());
            assertEquals("authentication failed - no authentication credentials provided.", r.text());
            r = h.request("GET", "/api2/json/version", Map.of("Authorization", "PBSAPIToken=" + TestServer.TOKEN), null);
            assertEquals(200, r.status(), "the '=' form of the token header");
            r = h.request("GET", "//api2/json/backup?store=store1", AUTH, null);
            assertEquals(400, r.status());
            assertEquals("missing Upgrade header", r.text());
        }
    }

    @Test
    void upgradeAfterRestCallOnTheSameConnection() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1"); RawHttps h = new RawHttps(s.port())) {
            assertEquals(200, h.request("GET", "/api2/json/version", AUTH, null).status());
            RawHttps.Response r = h.request("GET", "//api2/json/backup?backup-id=1&backup-time=" + T
                    + "&backup-type=vm&benchmark=false&debug=true&store=store1",
                    Map.of("Authorization", "PBSAPIToken " + TestServer.TOKEN, "Connection", "upgrade",
                            "Upgrade", "proxmox-backup-protocol-v1"), null);
            assertEquals(101, r.status());
            assertEquals("proxmox-backup-protocol-v1", r.headers().get("upgrade"));
            assertEquals("upgrade", r.headers().get("connection"));
        }
    }

    @Test
    void upgradeRefusals() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1")) {
            String base = "backup-id=100&backup-time=" + T + "&backup-type=vm&benchmark=false&debug=true&store=store1";
            assertRefused(s, base.replace("store1", "nostore"), AUTH, 400, "no such datastore 'nostore'"); // a token with privileges
            assertRefused(s, base + "&ns=nosuch", AUTH, 404, "namespace not found");
            assertRefused(s, base.replace("type=vm", "type=xx"), AUTH, 400,
                    "parameter verification failed - 'backup-type': value 'xx' is not defined in the enumeration.");
            assertRefused(s, base.replace("store=store1", "store=s1"), AUTH, 400,
                    "parameter verification failed - 'store': value must be at least 3 characters long");
            assertRefused(s, base.replace("backup-time=" + T + "&", ""), AUTH, 400,
                    "parameter verification failed - 'backup-time': parameter is missing and it is not optional.");
            assertRefused(s, base.replace("benchmark=false", "benchmark=true"), AUTH, 400,
                    "benchmark flags is only allowed on 'host/benchmark'");
            assertRefused(s, base.replace("backup-id=100", "backup-id=benchmark").replace("type=vm", "type=host"), AUTH, 400,
                    "unable to run benchmark without --benchmark flags");
            assertRefused(s, base, Map.of(), 401, "authentication failed - no authentication credentials provided.");
            Backups.imageBackup(s, "store1", "100", T, Backups.image(1, 1, 10));
            s.awaitIdle();
            assertRefused(s, base.replace("time=" + T, "time=" + (T + 1)),
                    Map.of("Authorization", "PBSAPIToken " + TestServer.OTHER_TOKEN), 400,
                    "backup owner check failed (other@pbs!t1 != root@pam!capture)");
            assertEquals(0, s.server.activeSessions());
        }
    }

    static void assertRefused(TestServer s, String query, Map<String, String> headers, int status, String text)
            throws Exception {
        try (PbsTestClient c = PbsTestClient.connect(s.port(), s.server.fingerprint(), PbsTestClient.BACKUP)) {
            PbsTestClient.Resp r = c.upgrade("//api2/json/backup?" + query, headers);
            if (r == null) {
                throw new AssertionError("upgrade accepted, expected " + status + " " + text);
            }
            assertEquals(status, r.status(), r.toString());
            assertEquals(text, r.text());
        }
    }
}
