package org.jpbs.server.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.api.Test;

/** {@code user.cfg} and {@code acl.cfg}: parse, write, round trips with the files PBS 3.1.2 wrote. */
class ConfigParsersTest {
    static Path realConfig(String name) {
        return SharedVectors.require("vectors/real-pbs/config/" + name);
    }

    @Test
    void realUserCfgRoundTripsByteForByte() throws Exception {
        String text = Files.readString(realConfig("user.cfg"));
        UserConfig u = UserConfig.parse(text, "user.cfg");
        assertEquals(text, u.write());
        assertEquals(3, u.sections().size());
        assertTrue(u.user(Authid.parse("bench@pbs")).isPresent());
        assertEquals("Superuser", u.user(Authid.ROOT).orElseThrow().get("comment"));
        assertTrue(u.token(Authid.parse("bench@pbs!t1")).isPresent());
        assertEquals(List.of(Authid.parse("bench@pbs!t1")), u.tokensOf(Authid.parse("bench@pbs")));
    }

    @Test
    void realAclCfgRoundTripsByteForByte() throws Exception {
        String text = Files.readString(realConfig("acl.cfg"));
        AclConfig acl = AclConfig.parse(text, "acl.cfg");
        assertEquals(text, acl.write());
        assertEquals(Map.of("DatastoreAdmin", true), acl.rolesAt("/datastore/golden", "bench@pbs!t1"));
        assertEquals(List.of("/datastore/golden", "/datastore/store1"), acl.paths());
    }

    @Test
    void otherPbsSectionConfigsRoundTrip() throws Exception {
        for (String name : List.of("datastore.cfg", "prune.cfg", "verification.cfg")) {
            String text = Files.readString(realConfig(name));
            List<SectionConfig.Section> s = SectionConfig.parse(text, name);
            assertEquals(text, SectionConfig.write(s), name);
        }
        List<SectionConfig.Section> ds = SectionConfig.parse(Files.readString(realConfig("datastore.cfg")), "d");
        assertEquals("read-only,message=moving disks", ds.getFirst().get("maintenance-mode"));
        assertEquals("golden test datastore", ds.get(1).get("comment"));
    }

    @Test
    void sectionConfigErrorsNameFileAndLine() {
        var e = assertThrows(IllegalArgumentException.class, () -> SectionConfig.parse("\tcomment x\n", "u.cfg"));
        assertEquals("u.cfg line 1: property outside of a section", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> SectionConfig.parse("user: a@pbs\n\tcomment x\n\tcomment y\n", "u.cfg"));
        assertEquals("u.cfg line 3: duplicate property 'comment'", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> SectionConfig.parse("user: a@pbs\n\nuser: a@pbs\n", "u.cfg"));
        assertEquals("u.cfg line 3: duplicate section 'user: a@pbs'", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> SectionConfig.parse("garbage\n", "u.cfg"));
        assertEquals("u.cfg line 1: expected '<type>: <id>'", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> UserConfig.parse("user: nope\n", "u.cfg"));
        assertTrue(e.getMessage().startsWith("u.cfg: section 'user: nope': invalid auth id 'nope'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> UserConfig.parse("token: a@pbs\n", "u.cfg"));
        assertTrue(e.getMessage().contains("not a token id"), e.getMessage());
    }

    @Test
    void sectionsWithCommentsAndNewUsersWriteInPbsLayout() {
        UserConfig u = UserConfig.parse("# a comment\nuser: root@pam\n\tcomment Superuser\n", "u");
        u = u.with(UserConfig.section(UserConfig.USER, Authid.parse("a@pbs"), "first user"))
                .with(UserConfig.section(UserConfig.TOKEN, Authid.parse("a@pbs!t"), null));
        assertEquals("user: root@pam\n\tcomment Superuser\n\nuser: a@pbs\n\tcomment first user\n\ntoken: a@pbs!t\n",
                u.write());
        assertEquals(u.write(), UserConfig.parse(u.write(), "u").write());
        assertEquals("user: root@pam\n\tcomment Superuser\n\nuser: a@pbs\n\tcomment first user\n",
                u.without(UserConfig.TOKEN, "a@pbs!t").write());
        assertThrows(IllegalArgumentException.class,
                () -> UserConfig.section(UserConfig.USER, Authid.parse("b@pbs"), "two\nlines"));
    }

    @Test
    void activeUsersAndTokens() {
        UserConfig u = UserConfig.parse("""
                user: on@pbs

                user: off@pbs
                \tenable false

                user: old@pbs
                \texpire 1000

                token: on@pbs!t

                token: on@pbs!off
                \tenable 0

                token: off@pbs!t
                """, "u");
        long now = 2000;
        assertTrue(u.isActive(Authid.parse("on@pbs"), now));
        assertFalse(u.isActive(Authid.parse("off@pbs"), now));
        assertFalse(u.isActive(Authid.parse("old@pbs"), now));
        assertTrue(u.isActive(Authid.parse("old@pbs"), 999));
        assertTrue(u.isActive(Authid.parse("on@pbs!t"), now));
        assertFalse(u.isActive(Authid.parse("on@pbs!off"), now), "disabled token");
        assertFalse(u.isActive(Authid.parse("off@pbs!t"), now), "token of a disabled user");
        assertFalse(u.isActive(Authid.parse("on@pbs!missing"), now));
        assertFalse(u.isActive(Authid.parse("ghost@pbs"), now));
        assertTrue(u.isActive(Authid.ROOT, now), "root@pam exists even when not listed");
    }

    @Test
    void aclWriteMergesAndOrdersLikePbs() {
        AclConfig acl = AclConfig.parse("""
                acl:1:/datastore/bbb:u@pbs:DatastoreReader
                acl:1:/datastore/aaa-b:u@pbs:DatastoreAudit
                acl:0:/datastore/aaa:v@pbs,u@pbs:DatastoreBackup
                acl:1:/datastore/aaa:u@pbs:DatastoreAudit
                acl:1:/datastore/aaa:v@pbs:DatastoreAudit
                acl:1:/:root@pam:Admin
                acl:1:/datastore/aaa/ns1:u@pbs:NoAccess,DatastoreAdmin
                """, "acl.cfg");
        assertEquals("""
                acl:0:/datastore/aaa:u@pbs,v@pbs:DatastoreBackup
                acl:1:/datastore/aaa:u@pbs,v@pbs:DatastoreAudit
                acl:1:/datastore/aaa/ns1:u@pbs:DatastoreAdmin
                acl:1:/datastore/aaa-b:u@pbs:DatastoreAudit
                acl:1:/datastore/bbb:u@pbs:DatastoreReader
                """, acl.write(), "DFS order, 0 before 1, merged ugids, root@pam not written, later role wins over NoAccess");
        AclConfig two = AclConfig.parse("acl:1:/datastore/x1y:u@pbs:DatastoreAudit,DatastoreBackup\n", "a");
        assertEquals("acl:1:/datastore/x1y:u@pbs:DatastoreAudit,DatastoreBackup\n", two.write());
        AclConfig none = two.update("/datastore/x1y", Authid.parse("u@pbs"), Role.NO_ACCESS, true, false);
        assertEquals("acl:1:/datastore/x1y:u@pbs:NoAccess\n", none.write());
        assertEquals("acl:1:/datastore/x1y:u@pbs:DatastoreBackup\n",
                two.update("/datastore/x1y/", Authid.parse("u@pbs"), Role.DATASTORE_AUDIT_ROLE, true, true).write());
        assertEquals("", two.withoutUgid("u@pbs").write());
        assertEquals("acl:1:/datastore/x1y:u@pbs:DatastoreAudit,DatastoreBackup\n", two.write(), "immutable");
    }

    @Test
    void aclParseErrors() {
        var e = assertThrows(IllegalArgumentException.class, () -> AclConfig.parse("acl:1:/datastore/a1b:u@pbs:Boss\n", "acl.cfg"));
        assertEquals("acl.cfg line 1: unknown role 'Boss'", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> AclConfig.parse("\nacl:2:/:u@pbs:Admin\n", "acl.cfg"));
        assertEquals("acl.cfg line 2: propagate flag must be 0 or 1, not '2'", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> AclConfig.parse("acl:1:/nowhere:u@pbs:Admin\n", "acl.cfg"));
        assertTrue(e.getMessage().startsWith("acl.cfg line 1: invalid ACL path '/nowhere'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> AclConfig.parse("acl:1:/:nouser:Admin\n", "acl.cfg"));
        assertTrue(e.getMessage().startsWith("acl.cfg line 1: invalid auth id 'nouser'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> AclConfig.parse("acl:1:/\n", "acl.cfg"));
        assertTrue(e.getMessage().startsWith("acl.cfg line 1: expected"), e.getMessage());
        assertEquals("/datastore/s1x/a/b", AclPaths.check("/datastore//s1x/a/b/"));
        assertThrows(IllegalArgumentException.class, () -> AclPaths.check("/datastore/x"), "store name too short");
        assertThrows(IllegalArgumentException.class, () -> AclPaths.check("/datastore/s1x/1/2/3/4/5/6/7/8"));
        assertThrows(IllegalArgumentException.class, () -> AclPaths.check("datastore"));
    }

    @Test
    void authidParsing() {
        Authid t = Authid.parse("bench@pbs!t1");
        assertTrue(t.isToken());
        assertEquals("bench@pbs", t.userid());
        assertEquals(Authid.parse("bench@pbs"), t.user());
        assertEquals("bench@pbs!t1", t.toString());
        assertTrue(Authid.parse("root@pam").isSuperuser());
        assertFalse(Authid.parse("root@pam!t").isSuperuser());
        for (String bad : List.of("", "root", "@pam", "root@", "a b@pbs", "a@p", "a@pbs!", "a@pbs!-x", "a:b@pbs")) {
            assertThrows(IllegalArgumentException.class, () -> Authid.parse(bad), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> Authid.parseUser("a@pbs!t"));
    }
}
