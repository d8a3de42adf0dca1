package org.jpbs.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.file.Path;
import java.util.Map;
import org.jpbs.server.auth.AuthConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backup and reader upgrades on a datastore that is not configured, as PBS answers them:
 * the privilege check comes first, so a caller without privileges gets the same refusal as on an
 * existing datastore (nothing leaks), and one with them gets 400 {@code "no such datastore
 * 'nostore'"} (which the client prints instead of a misleading permission error).
 */
class UnknownDatastoreUpgradeTest {
    private static final long T = 1_700_000_000L;
    @TempDir(factory = ShmTempDirFactory.class)
    Path tmp;

    private static String q(String store) {
        return "backup-id=100&backup-time=" + T + "&backup-type=vm&debug=true&store=" + store;
    }

    private static PbsTestClient.Resp upgrade(TestServer s, String protocol, String store, String token) throws Exception {
        try (PbsTestClient c = PbsTestClient.connect(s.port(), s.fingerprint(), protocol)) {
            String path = protocol.equals(PbsTestClient.BACKUP) ? "//api2/json/backup?" : "//api2/json/reader?";
            PbsTestClient.Resp r = c.upgrade(path + q(store) + (protocol.equals(PbsTestClient.BACKUP) ? "&benchmark=false" : ""),
                    Map.of("Authorization", "PBSAPIToken " + token));
            assertNotNull(r, "the upgrade was accepted");
            return r;
        }
    }

    @Test
    void privilegedCallersLearnTheStoreIsUnknownOthersAreRefusedAsOnAKnownOne() throws Exception {
        try (TestServer s = TestServer.startWithUsers(tmp, "store1", tmp.resolve("ds"), "root@pam", "root-pass-1", "t")) {
            String root = "root@pam!t:" + s.userTokenSecret;
            AuthConfig cfg = AuthConfig.open(tmp.resolve("config"));
            cfg.addUser("carol@pbs", "carol-pass-1", null); // no ACL entry
            String carol = "carol@pbs!t:" + cfg.createToken("carol@pbs", "t", null);

            PbsTestClient.Resp r = upgrade(s, PbsTestClient.BACKUP, "nostore", root);
            assertEquals("400 no such datastore 'nostore'", r.status() + " " + r.text());
            r = upgrade(s, PbsTestClient.READER, "nostore", root);
            assertEquals("400 no such datastore 'nostore'", r.status() + " " + r.text());

            for (String store : new String[] {"nostore", "store1"}) {
                r = upgrade(s, PbsTestClient.BACKUP, store, carol);
                assertEquals("403 missing permissions 'Datastore.Backup' on '/datastore/" + store + "'", r.status() + " " + r.text());
                r = upgrade(s, PbsTestClient.READER, store, carol);
                assertEquals("400 no permissions on /datastore/" + store, r.status() + " " + r.text());
            }
        }
    }
}
