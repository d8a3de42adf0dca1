package org.jpbs.server.auth;

import static org.jpbs.server.auth.Privilege.DATASTORE_AUDIT;
import static org.jpbs.server.auth.Privilege.DATASTORE_BACKUP;
import static org.jpbs.server.auth.Privilege.DATASTORE_MODIFY;
import static org.jpbs.server.auth.Privilege.DATASTORE_PRUNE;
import static org.jpbs.server.auth.Privilege.DATASTORE_READ;
import static org.jpbs.server.auth.Privilege.DATASTORE_VERIFY;
import static org.jpbs.server.auth.Privilege.mask;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jpbs.core.api.BackupNamespace;
import org.junit.jupiter.api.Test;

/** ACL resolution ({@code docs/api.md#conventions-as-pbs}): inheritance, propagate, overrides, NoAccess, tokens, roles. */
class AclResolverTest {
    static final Authid U = Authid.parse("u@pbs");
    static final Authid T = Authid.parse("u@pbs!t");

    static List<String> ds(String store, String... ns) {
        return AclPaths.datastore(store, BackupNamespace.parse(String.join("/", ns)));
    }

    static AclResolver acl(String text) {
        return new AclResolver(AclConfig.parse(text, "acl.cfg"));
    }

    @Test
    void theDatastoreRolesHaveThePbsPrivileges() {
        assertEquals(mask(DATASTORE_AUDIT, DATASTORE_MODIFY, DATASTORE_READ, DATASTORE_VERIFY, DATASTORE_BACKUP,
                DATASTORE_PRUNE), Role.DATASTORE_ADMIN.privileges());
        assertEquals(mask(DATASTORE_BACKUP), Role.DATASTORE_BACKUP_ROLE.privileges());
        assertEquals(mask(DATASTORE_AUDIT, DATASTORE_VERIFY, DATASTORE_READ), Role.DATASTORE_READER.privileges());
        assertEquals(mask(DATASTORE_PRUNE, DATASTORE_BACKUP), Role.DATASTORE_POWER_USER.privileges());
        assertEquals(mask(DATASTORE_AUDIT), Role.DATASTORE_AUDIT_ROLE.privileges());
        assertEquals(0, Role.NO_ACCESS.privileges());
        assertEquals(Privilege.all(), Role.ADMIN.privileges());
        assertEquals("Datastore.Audit|Datastore.Backup", Privilege.joined(mask(DATASTORE_BACKUP, DATASTORE_AUDIT)));
        assertEquals(Role.DATASTORE_BACKUP_ROLE, Role.parse("DatastoreBackup"));
    }

    @Test
    void propagatingRolesReachNamespacesNonPropagatingOnlyTheirPath() {
        AclResolver r = acl("""
                acl:1:/datastore/sto:u@pbs:DatastoreBackup
                acl:0:/datastore/oth:u@pbs:DatastoreReader
                """);
        assertEquals(mask(DATASTORE_BACKUP), r.privileges(U, ds("sto")));
        assertEquals(mask(DATASTORE_BACKUP), r.privileges(U, ds("sto", "a", "b")), "inherited by namespaces");
        assertEquals(Role.DATASTORE_READER.privileges(), r.privileges(U, ds("oth")));
        assertEquals(0, r.privileges(U, ds("oth", "a")), "not propagated");
        assertEquals(0, r.privileges(U, List.of("datastore")), "nothing above");
        assertEquals(0, r.privileges(U, ds("xyz")), "other store");
        assertEquals(0, r.privileges(Authid.parse("v@pbs"), ds("sto")), "other user");
    }

    @Test
    void aDeeperEntryReplacesWhatIsInherited() {
        AclResolver r = acl("""
                acl:1:/:u@pbs:Admin
                acl:1:/datastore/sto/sec:u@pbs:DatastoreAudit
                acl:1:/datastore/sto/none:u@pbs:NoAccess
                """);
        assertEquals(Privilege.all(), r.privileges(U, ds("sto")));
        assertEquals(mask(DATASTORE_AUDIT), r.privileges(U, ds("sto", "sec")), "replaced, not added");
        assertEquals(mask(DATASTORE_AUDIT), r.privileges(U, ds("sto", "sec", "deeper")));
        assertEquals(0, r.privileges(U, ds("sto", "none", "x")), "NoAccess propagates");
        assertEquals(Privilege.all(), r.privileges(U, ds("sto", "other")));
    }

    @Test
    void noAccessBeatsOtherRolesAtTheSameNode() {
        AclConfig acl = AclConfig.empty()
                .update("/datastore/sto", U, Role.DATASTORE_ADMIN, true, false)
                .update("/datastore/sto", U, Role.NO_ACCESS, true, false);
        assertEquals(0, new AclResolver(acl).privileges(U, ds("sto")));
    }

    @Test
    void aTokenGetsTheIntersectionWithItsUser() {
        AclResolver r = acl("""
                acl:1:/datastore/sto:u@pbs:DatastorePowerUser
                acl:1:/datastore/sto:u@pbs!t:DatastoreAdmin
                acl:1:/datastore/two:u@pbs!t:DatastoreAdmin
                acl:1:/datastore/thr:u@pbs:DatastoreAdmin
                """);
        assertEquals(mask(DATASTORE_PRUNE, DATASTORE_BACKUP), r.privileges(T, ds("sto")));
        assertEquals(0, r.privileges(T, ds("two")), "the user has nothing there");
        assertEquals(0, r.privileges(T, ds("thr")), "a token does not inherit its user's ACL");
        assertEquals(Role.DATASTORE_ADMIN.privileges(), r.privileges(U, ds("thr")));
    }

    @Test
    void rootAtPamHasEverythingButItsTokensDoNot() {
        AclResolver r = acl("acl:1:/datastore/sto:root@pam!t:DatastoreReader\n");
        assertEquals(Privilege.all(), r.privileges(Authid.ROOT, ds("anything", "ns")));
        assertEquals(Privilege.all(), r.privileges(Authid.ROOT, List.of()));
        assertEquals(Role.DATASTORE_READER.privileges(), r.privileges(Authid.parse("root@pam!t"), ds("sto")));
        assertEquals(0, r.privileges(Authid.parse("root@pam!t"), ds("oth")));
    }

    @Test
    void privilegesBelowAPath() {
        AclResolver r = acl("""
                acl:1:/datastore/sto/team:u@pbs:DatastoreBackup
                acl:1:/datastore:v@pbs:DatastoreAudit
                """);
        long ok = mask(DATASTORE_AUDIT, DATASTORE_BACKUP, DATASTORE_READ, DATASTORE_MODIFY);
        assertEquals(0, r.privileges(U, ds("sto")));
        assertTrue(r.anyPrivsBelow(U, ds("sto"), ok));
        assertFalse(r.anyPrivsBelow(U, ds("oth"), ok));
        assertTrue(r.anyPrivsBelow(Authid.parse("v@pbs"), ds("oth"), ok), "propagated from /datastore");
        assertFalse(r.anyPrivsBelow(U, ds("sto"), mask(DATASTORE_PRUNE)));
    }
}
