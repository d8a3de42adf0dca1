package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jpbs user add|delete}, {@code user token create|delete}, {@code acl update [--delete]}. */
class UserAclCliTest {
    @TempDir
    Path tmp;

    Path config;
    CliRunner cli;

    @BeforeEach
    void setUp() {
        config = tmp.resolve("config");
        cli = new CliRunner(tmp.resolve("home"), Map.of("JPBS_CONFIG_DIR", config.toString()));
    }

    private CliRunner.Result ok(String... args) {
        CliRunner.Result r = cli.run(args);
        assertEquals(0, r.exit(), r.all());
        return r;
    }

    private CliRunner.Result fails(int exit, String mustContain, String... args) {
        CliRunner.Result r = cli.run(args);
        assertEquals(exit, r.exit(), r.all());
        assertEquals(1, r.err().lines().count(), r.all());
        assertTrue(r.err().startsWith("jpbs: error: ") && r.err().contains(mustContain), mustContain + " in " + r.all());
        return r;
    }

    private String file(String name) throws IOException {
        return Files.readString(config.resolve(name));
    }

    @Test
    void deletingARoleThatIsNotSetWarnsAndChangesNothing() throws IOException {
        ok("user", "add", "backup@pbs", "--password", "secret-123");
        ok("acl", "update", "/datastore/store1", "DatastoreBackup", "--auth-id", "backup@pbs");
        String before = file("acl.cfg");
        CliRunner.Result r = ok("acl", "update", "/datastore/store1", "DatastoreReader", "--auth-id", "backup@pbs", "--delete");
        assertEquals("jpbs: warning: backup@pbs has no role DatastoreReader on /datastore/store1; nothing removed\n", r.err());
        assertEquals(before, file("acl.cfg"));
        r = ok("acl", "update", "/datastore/store1", "DatastoreBackup", "--auth-id", "backup@pbs", "--delete");
        assertTrue(r.err().startsWith("removed DatastoreBackup"), r.all());
        assertFalse(file("acl.cfg").contains("backup@pbs"), file("acl.cfg"));
    }

    @Test
    void rootAndPamUsersGetClearMessages() {
        fails(1, "root@pam is the built-in superuser and always exists; set its password with", "user", "add", "root@pam",
                "--password", "secret-123");
        fails(1, "realm 'pam' (system users) is not managed by jpbs", "user", "add", "alice@pam");
        fails(1, "add 'alice@pbs' instead", "user", "add", "alice@pam");
        fails(1, "root@pam is the built-in superuser and cannot be deleted", "user", "delete", "root@pam");
    }

    @Test
    void deletingTokensAndUsersRemovesTheirAclEntries() throws IOException {
        ok("user", "add", "backup@pbs", "--password", "secret-123");
        ok("user", "add", "other@pbs");
        ok("user", "token", "create", "backup@pbs", "t1");
        ok("user", "token", "create", "backup@pbs", "t2");
        ok("acl", "update", "/datastore/store1", "DatastoreBackup", "--auth-id", "backup@pbs");
        ok("acl", "update", "/datastore/store1", "DatastoreBackup", "--auth-id", "backup@pbs!t1");
        ok("acl", "update", "/datastore", "DatastoreReader", "--auth-id", "backup@pbs!t2");
        ok("acl", "update", "/datastore", "DatastoreReader", "--auth-id", "other@pbs");

        CliRunner.Result r = ok("user", "token", "delete", "backup@pbs", "t1");
        assertTrue(r.err().contains("deleted API token backup@pbs!t1"), r.all());
        assertFalse(file("acl.cfg").contains("backup@pbs!t1"), file("acl.cfg"));
        assertFalse(file("user.cfg").contains("backup@pbs!t1"), file("user.cfg"));
        assertFalse(file("token.shadow").contains("backup@pbs!t1"), file("token.shadow"));
        assertTrue(file("acl.cfg").contains("backup@pbs!t2"), file("acl.cfg"));
        fails(1, "no such API token 'backup@pbs!t1'", "user", "token", "delete", "backup@pbs", "t1");

        r = ok("user", "delete", "backup@pbs");
        assertTrue(r.err().contains("deleted user backup@pbs and its API tokens [backup@pbs!t2]"), r.all());
        for (String f : new String[] {"acl.cfg", "user.cfg", "token.shadow", "shadow.json"}) {
            assertFalse(file(f).contains("backup@pbs"), f + ": " + file(f));
        }
        assertTrue(file("acl.cfg").contains("other@pbs"), file("acl.cfg"));
        assertTrue(file("user.cfg").contains("other@pbs"), file("user.cfg"));
        fails(1, "no such user 'backup@pbs'", "user", "delete", "backup@pbs");
        fails(2, "TOKENNAME", "user", "token", "delete", "other@pbs");
    }
    @Test
    void malformedArgumentsAreUsageErrorsThatTouchNothing() throws IOException {
        fails(2, "USERID: invalid auth id 'bad'", "user", "delete", "bad");
        fails(2, "USERID: invalid auth id 'a b@pbs'", "user", "add", "a b@pbs", "--password", "secret-123");
        fails(2, "--password: the password must have 5 to 64 characters, got 1", "user", "add", "x@pbs", "--password", "x");
        fails(1, "--password-file " + tmp.resolve("nope") + ": cannot read it: no such file", "user", "add", "x@pbs",
                "--password-file", tmp.resolve("nope").toString());
        fails(2, "TOKENNAME: invalid token name 'bad name'", "user", "token", "create", "x@pbs", "bad name");
        fails(2, "TOKENNAME: invalid token name 'bad name'", "user", "token", "delete", "x@pbs", "bad name");
        fails(2, "ROLE: unknown role 'Bogus'", "acl", "update", "/datastore/store1", "Bogus", "--auth-id", "x@pbs");
        fails(2, "PATH: invalid ACL path 'datastore/store1'", "acl", "update", "datastore/store1", "DatastoreBackup",
                "--auth-id", "x@pbs");
        fails(2, "--auth-id: invalid auth id 'x'", "acl", "update", "/datastore/store1", "DatastoreBackup", "--auth-id", "x");
        assertFalse(Files.exists(config.resolve("user.cfg")));
        assertFalse(Files.exists(config.resolve("acl.cfg")));
        // what depends on the stored configuration stays a runtime error
        fails(1, "no such user 'x@pbs'", "acl", "update", "/datastore/store1", "DatastoreBackup", "--auth-id", "x@pbs");
    }
}
