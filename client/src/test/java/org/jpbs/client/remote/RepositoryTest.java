package org.jpbs.client.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RepositoryTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "pbs.example:store1|root@pam|pbs.example|8007|store1",
        "localhost:store1|root@pam|localhost|8007|store1",
        "store1|root@pam|localhost|8007|store1",
        "my.store_2|root@pam|localhost|8007|my.store_2",
        "backup@pbs@pbs.example:store1|backup@pbs|pbs.example|8007|store1",
        "backup@pbs!pve@pbs.example:8007:store1|backup@pbs!pve|pbs.example|8007|store1",
        "backup@pbs!pve@10.0.0.5:1234:store1|backup@pbs!pve|10.0.0.5|1234|store1",
        "[fe80::1]:1234:store1|root@pam|fe80::1|1234|store1",
        "[::1]:store1|root@pam|::1|8007|store1",
        "root@pam@[2001:db8::7]:8008:ds_2|root@pam|2001:db8::7|8008|ds_2",
        "u-1.x@ldap-realm!tok.1@host-a.b.c:my.store|u-1.x@ldap-realm!tok.1|host-a.b.c|8007|my.store",
    })
    void remoteRepositories(String text, String authId, String host, int port, String store) {
        Repository r = Repository.parse(text);
        assertTrue(r.isRemote(), text);
        assertEquals(authId, r.authId());
        assertEquals(host, r.host());
        assertEquals(port, r.port());
        assertEquals(store, r.store());
        assertEquals(authId.contains("!"), r.isToken());
        assertEquals(authId.replaceAll("!.*", ""), r.userId());
        // the canonical form parses to the same repository
        assertEquals(r, Repository.parse(r.toString()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/srv/ds", "./ds", "../x:y", "~/ds", "relative/dir", ".hidden"})
    void localRepositories(String text) {
        Repository r = Repository.parse(text);
        assertFalse(r.isRemote(), text);
        assertEquals(Path.of(text), r.localPath());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "host:st|datastore name 'st'",
        "host:a/b|datastore name 'a/b'",
        "root@host:store1|auth id 'root'",
        "user@pam!@host:store1|token name",
        "host:99999:store1|invalid port '99999'",
        "host:0:store1|invalid port '0'",
        "ho_st:store1|invalid host 'ho_st'",
        "[fe80::1:store1|missing ']'",
        "[nothex]:store1|invalid IPv6 address",
        ":store1|invalid host ''",
        "st|write a local directory as ./st",
        "my store|datastore name 'my store'",
    })
    void invalidRepositories(String text, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Repository.parse(text));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertTrue(e.getMessage().contains("'" + text + "'"), e.getMessage());
    }

    @Test
    void credentialsFromEnvironment() {
        Credentials c = Credentials.fromEnv(Map.of("PBS_PASSWORD", "pw-xyz\nsecond line", "PBS_FINGERPRINT",
                "AB:" + "cd:".repeat(30) + "EF"), null);
        assertEquals("pw-xyz", c.secret());
        assertEquals("ab:" + "cd:".repeat(30) + "ef", c.fingerprint());
        assertFalse(c.toString().contains("pw-xyz"), c.toString());
        Credentials o = Credentials.fromEnv(Map.of("PBS_FINGERPRINT", "00:" .repeat(31) + "00"), "11:".repeat(31) + "11");
        assertEquals("11:".repeat(31) + "11", o.fingerprint());
        assertEquals(null, o.secret());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Credentials.fromEnv(Map.of("PBS_FINGERPRINT", "ab:cd"), null));
        assertTrue(e.getMessage().startsWith("PBS_FINGERPRINT: invalid certificate fingerprint 'ab:cd'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Credentials.fromEnv(Map.of(), "zz"));
        assertTrue(e.getMessage().startsWith("--fingerprint:"), e.getMessage());
    }

    @Test
    void clientNeedsASecret() {
        Repository r = Repository.parse("backup@pbs!t1@host:store1");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PbsClient(r, new Credentials(null, null)));
        assertTrue(e.getMessage().contains("PBS_PASSWORD") && e.getMessage().contains("token secret"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new PbsClient(Repository.parse("/local"), new Credentials("x", null)));
    }
}
