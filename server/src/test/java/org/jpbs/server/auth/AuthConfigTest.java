package org.jpbs.server.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.jpbs.core.api.BackupNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The admin API ({@link AuthConfig}) and {@link FileAuthenticator} over the files it writes. */
class AuthConfigTest {
    @TempDir
    Path dir;

    /** A clock tests can move. */
    static final class MovableClock extends Clock {
        volatile Instant now = Instant.ofEpochSecond(1_800_000_000L);

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    static HttpHeaders token(String id, String secret, char sep) {
        return new DefaultHttpHeaders().set("Authorization", "PBSAPIToken" + sep + id + ":" + secret);
    }

    private Map<String, byte[]> snapshotFiles() throws Exception {
        Map<String, byte[]> m = new HashMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) {
                if (!p.getFileName().toString().startsWith(".")) {
                    m.put(p.getFileName().toString(), Files.readAllBytes(p));
                }
            }
        }
        return m;
    }

    private static void assertSameFiles(Map<String, byte[]> a, Map<String, byte[]> b) {
        assertEquals(a.keySet(), b.keySet());
        a.forEach((k, v) -> assertTrue(java.util.Arrays.equals(v, b.get(k)), k + " changed"));
    }

    @Test
    void usersTokensAndAclsAreWrittenInPbsSyntaxWithSecretsHashed() throws Exception {
        AuthConfig cfg = AuthConfig.open(dir);
        cfg.addUser("alice@pbs", "alice-password", "Alice");
        String secret = cfg.createToken("alice@pbs", "backup", null);
        assertTrue(secret.matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), secret);
        cfg.updateAcl("/datastore/store1", "alice@pbs", "DatastoreAdmin", true, false);
        cfg.updateAcl("/datastore/store1", "alice@pbs!backup", "DatastoreBackup", true, false);
        assertEquals("user: alice@pbs\n\tcomment Alice\n\ntoken: alice@pbs!backup\n",
                Files.readString(dir.resolve("user.cfg")));
        assertEquals("acl:1:/datastore/store1:alice@pbs:DatastoreAdmin\nacl:1:/datastore/store1:alice@pbs!backup:DatastoreBackup\n",
                Files.readString(dir.resolve("acl.cfg")));
        String tokenShadow = Files.readString(dir.resolve("token.shadow"));
        assertFalse(tokenShadow.contains(secret), "only the hash is stored");
        assertTrue(tokenShadow.contains("\"alice@pbs!backup\" : \"$pbkdf2-sha256$"), tokenShadow);
        assertFalse(Files.readString(dir.resolve("shadow.json")).contains("alice-password"));
        for (String f : new String[] {"shadow.json", "token.shadow"}) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(f))), f);
        }
        assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("acl.cfg"))));
        AuthState s = cfg.load();
        assertTrue(PasswordHash.verify("alice-password", s.passwords().get("alice@pbs")));
        assertTrue(PasswordHash.verify(secret, s.tokens().get("alice@pbs!backup")));
        try (Stream<Path> files = Files.list(dir)) {
            assertTrue(files.noneMatch(p -> p.getFileName().toString().contains(".tmp_")), "no temporary files");
        }

        cfg.deleteToken("alice@pbs!backup");
        assertEquals("user: alice@pbs\n\tcomment Alice\n", Files.readString(dir.resolve("user.cfg")));
        assertEquals("acl:1:/datastore/store1:alice@pbs:DatastoreAdmin\n", Files.readString(dir.resolve("acl.cfg")));
        assertEquals("{ }\n", Files.readString(dir.resolve("token.shadow")));
    }

    @Test
    void invalidRequestsChangeNothing() throws Exception {
        AuthConfig cfg = AuthConfig.open(dir);
        cfg.addUser("bob@pbs", null, null);
        cfg.createToken("bob@pbs", "t", "tok");
        Map<String, byte[]> before = snapshotFiles();
        assertEquals("user 'bob@pbs' already exists",
                assertThrows(IllegalArgumentException.class, () -> cfg.addUser("bob@pbs", "password", null)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> cfg.addUser("carl@pam", "password", null));
        assertThrows(IllegalArgumentException.class, () -> cfg.addUser("carl@ldap", "password", null));
        assertThrows(IllegalArgumentException.class, () -> cfg.addUser("carl@pbs", "shrt", null));
        assertThrows(IllegalArgumentException.class, () -> cfg.addUser("carl@pbs", "password", "two\nlines"));
        assertThrows(IllegalArgumentException.class, () -> cfg.addUser("root@pam", "password", null));
        assertEquals("API token 'bob@pbs!t' already exists",
                assertThrows(IllegalArgumentException.class, () -> cfg.createToken("bob@pbs", "t", null)).getMessage());
        assertEquals("no such user 'nobody@pbs'",
                assertThrows(IllegalArgumentException.class, () -> cfg.createToken("nobody@pbs", "t", null)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> cfg.createToken("bob@pbs", "-bad", null));
        assertThrows(IllegalArgumentException.class, () -> cfg.createToken("bob@pbs", "x", "a\nb"));
        assertEquals("no such API token 'bob@pbs!nope'", assertThrows(IllegalArgumentException.class,
                () -> cfg.updateAcl("/datastore/store1", "bob@pbs!nope", "DatastoreAdmin", true, false)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> cfg.updateAcl("/datastore/store1", "bob@pbs", "Boss", true, false));
        assertThrows(IllegalArgumentException.class, () -> cfg.updateAcl("/nowhere", "bob@pbs", "Admin", true, false));
        assertThrows(IllegalArgumentException.class, () -> cfg.setPassword("nobody@pbs", "password"));
        assertThrows(IllegalArgumentException.class, () -> cfg.deleteToken("bob@pbs!nope"));
        assertSameFiles(before, snapshotFiles());
    }

    @Test
    void authenticatorAcceptsTokensTicketsAndFollowsFileChanges() throws Exception {
        AuthConfig cfg = AuthConfig.open(dir);
        MovableClock clock = new MovableClock();
        FileAuthenticator auth = FileAuthenticator.open(dir, clock);
        assertEquals(AuthResult.NO_CREDENTIALS, auth.authenticate(new DefaultHttpHeaders()).error());

        cfg.addUser("dave@pbs", "dave-password", null);
        String secret = cfg.createToken("dave@pbs", "t1", null);
        cfg.updateAcl("/datastore/store1", "dave@pbs", "DatastoreAdmin", true, false);
        cfg.updateAcl("/datastore/store1", "dave@pbs!t1", "DatastoreBackup", true, false);
        // picked up without reopening
        assertEquals("dave@pbs!t1", auth.authenticate(token("dave@pbs!t1", secret, ' ')).authid());
        assertEquals("dave@pbs!t1", auth.authenticate(token("dave@pbs!t1", secret, '=')).authid());
        assertEquals("dave@pbs!t1", auth.authenticate(token("dave@pbs!t1", secret, ' ')).authid(), "cached");
        assertEquals(AuthResult.INVALID_CREDENTIALS, auth.authenticate(token("dave@pbs!t1", secret + "x", ' ')).error());
        assertEquals(AuthResult.INVALID_CREDENTIALS, auth.authenticate(token("dave@pbs!t2", secret, ' ')).error());
        assertEquals(AuthResult.INVALID_CREDENTIALS, auth.authenticate(token("dave@pbs", "dave-password", ' ')).error());
        assertEquals(AuthResult.INVALID_CREDENTIALS,
                auth.authenticate(new DefaultHttpHeaders().set("Authorization", "Basic eDp5")).error());

        BackupNamespace ns = BackupNamespace.parse("a/b");
        assertTrue(auth.canBackup("dave@pbs!t1", "store1", ns));
        assertFalse(auth.canRead("dave@pbs!t1", "store1", ns), "DatastoreBackup has no Datastore.Read");
        assertTrue(auth.canRead("dave@pbs", "store1", ns));
        assertFalse(auth.canBackup("dave@pbs", "store2", BackupNamespace.ROOT));
        assertTrue(auth.canRead("root@pam", "anything", BackupNamespace.ROOT));

        assertTrue(auth.login("dave@pbs", "wrong").isEmpty());
        assertTrue(auth.login("dave@pbs!t1", secret).isEmpty(), "tokens cannot log in");
        assertTrue(auth.login("nobody@pbs", "dave-password").isEmpty());
        FileAuthenticator.Login login = auth.login("dave@pbs", "dave-password").orElseThrow();
        assertEquals("dave@pbs", login.username());
        HttpHeaders cookie = new DefaultHttpHeaders().set("Cookie", "other=1; PBSAuthCookie="
                + login.ticket().replace(":", "%3A").replace("+", "%2B").replace("/", "%2F"));
        assertEquals("dave@pbs", auth.authenticate(cookie, "GET").authid());
        assertEquals("authentication failed - missing CSRF prevention token", auth.authenticate(cookie, "POST").error());
        HttpHeaders withCsrf = cookie.copy().set(FileAuthenticator.CSRF_HEADER, login.csrfToken());
        assertEquals("dave@pbs", auth.authenticate(withCsrf, "DELETE").authid());
        HttpHeaders badCsrf = cookie.copy().set(FileAuthenticator.CSRF_HEADER, auth.tickets()
                .createCsrfToken(Authid.parse("other@pbs"), clock.now.getEpochSecond()));
        assertEquals("authentication failed - invalid CSRF prevention token", auth.authenticate(badCsrf, "PUT").error());
        HttpHeaders both = cookie.copy().set("Authorization", "PBSAPIToken dave@pbs!t1:" + secret);
        assertEquals("dave@pbs", auth.authenticate(both, "GET").authid(), "the cookie wins");

        clock.now = clock.now.plusSeconds(3600);
        FileAuthenticator.Login renewed = auth.login("dave@pbs", login.ticket()).orElseThrow();
        assertTrue(auth.login("other@pbs", login.ticket()).isEmpty(), "a ticket only renews its own user");
        clock.now = clock.now.plusSeconds(3601);
        assertEquals("authentication failed - ticket expired", auth.authenticate(cookie, "GET").error());
        assertEquals("dave@pbs", auth.authenticate(new DefaultHttpHeaders().set("Cookie",
                "PBSAuthCookie=" + renewed.ticket()), "GET").authid());

        // disabling the user in user.cfg locks out the user and its tokens
        Files.writeString(dir.resolve("user.cfg"), Files.readString(dir.resolve("user.cfg"))
                .replace("user: dave@pbs\n", "user: dave@pbs\n\tenable false\n"));
        assertEquals(AuthResult.INVALID_CREDENTIALS, auth.authenticate(token("dave@pbs!t1", secret, ' ')).error());
        assertTrue(auth.login("dave@pbs", "dave-password").isEmpty());
        // a broken file keeps the last good state
        Files.writeString(dir.resolve("acl.cfg"), "acl:9:broken\n");
        assertTrue(auth.canRead("dave@pbs", "store1", ns));
    }

    @Test
    void rootAtPamLogsInWithAPasswordFromShadowJson() throws Exception {
        AuthConfig cfg = AuthConfig.open(dir);
        FileAuthenticator auth = FileAuthenticator.open(dir);
        assertTrue(auth.login("root@pam", "root-password").isEmpty(), "no password set yet");
        cfg.setPassword("root@pam", "root-password");
        assertEquals("user: root@pam\n\tcomment Superuser\n", Files.readString(dir.resolve("user.cfg")));
        assertEquals("root@pam", auth.login("root@pam", "root-password").orElseThrow().username());
        String secret = cfg.createToken("root@pam", "adm", null);
        assertEquals("root@pam!adm", auth.authenticate(token("root@pam!adm", secret, ' ')).authid());
        assertFalse(auth.canRead("root@pam!adm", "store1", BackupNamespace.ROOT), "root's tokens need ACLs");
    }
}
