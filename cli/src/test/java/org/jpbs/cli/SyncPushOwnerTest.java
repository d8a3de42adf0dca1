package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.api.Upid;
import org.jpbs.datastore.jobs.JobConfig;
import org.jpbs.datastore.jobs.JobKind;
import org.jpbs.server.ServerServices;
import org.jpbs.server.api.ScheduledJobs;
import org.jpbs.server.auth.AuthConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A push job run by a server's scheduler sends what its {@code owner} may read locally, as PBS
 * ({@code docs/sync.md#running}): an owner with Datastore.Backup only pushes its own group and
 * skips the foreign-owned one (logged); with Datastore.Read (DatastoreReader) it pushes both.
 */
class SyncPushOwnerTest {
    static final BackupGroupRef OWN = new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "100");
    static final BackupGroupRef FOREIGN = new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "200");

    @TempDir(factory = FastTempDirs.class)
    Path tmp;

    private static List<String> run(NetTestServer local, JobConfig job) throws Exception {
        ServerServices svc = local.server.services();
        var scheduled = new ScheduledJobs(svc, local.dir.resolve("config")).of(job);
        Upid upid = svc.scheduler().runNow(scheduled, "root@pam");
        for (int i = 0; i < 1200 && svc.tasks().log(upid, 0, 1).active(); i++) {
            Thread.sleep(100);
        }
        // the scheduler lets go of the job just after the task's log ends: a second run now could
        // still find it running (failed once in CI: "job 'bob-push' is already running")
        for (int i = 0; i < 200 && svc.scheduler().isRunning(scheduled); i++) {
            Thread.sleep(50);
        }
        return svc.tasks().log(upid, 0, Long.MAX_VALUE).lines();
    }

    private static Set<String> groups(NetTestServer s) throws Exception {
        return Set.copyOf(s.datastore().listGroups(BackupNamespace.ROOT).stream()
                .filter(g -> {
                    try {
                        return !s.datastore().listSnapshots(g).isEmpty();
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }).map(Object::toString).toList());
    }

    /** bob@pbs with DatastoreBackup on the local server, which knows {@code remote} as {@code offsite} and runs sync jobs. */
    private static AuthConfig bobWithRemote(NetTestServer local, NetTestServer remote) throws Exception {
        Path config = local.dir.resolve("config");
        AuthConfig auth = AuthConfig.open(config);
        auth.addUser("bob@pbs", null, null);
        auth.updateAcl("/datastore", "bob@pbs", "DatastoreBackup", true, false);
        Files.writeString(config.resolve("remote.cfg"), "remote: offsite\n\thost 127.0.0.1\n\tport " + remote.port()
                + "\n\tauth-id " + NetTestServer.TOKEN_ID + "\n\tpassword " + Base64.getEncoder().encodeToString(
                remote.tokenSecret.getBytes(StandardCharsets.UTF_8)) + "\n\tfingerprint " + remote.fingerprint() + "\n");
        local.server.services().scheduler().syncTasks(org.jpbs.cli.admin.SyncEngineTasks.of(config));
        return auth;
    }

    @Test
    void aPushJobSendsOnlyWhatItsOwnerMayRead() throws Exception {
        try (NetTestServer remote = NetTestServer.startWithUsers(tmp.resolve("remote"));
             NetTestServer local = NetTestServer.startWithUsers(tmp.resolve("local"))) {
            AuthConfig auth = bobWithRemote(local, remote);
            SyncServersTest.backup(local.datastore(), new BackupSnapshotRef(OWN, SyncServersTest.T1), 1, 1, 0, "bob@pbs");
            SyncServersTest.backup(local.datastore(), new BackupSnapshotRef(FOREIGN, SyncServersTest.T1), 2, 1, 0,
                    "alice@pbs");
            JobConfig job = new JobConfig(JobKind.SYNC, "bob-push", Map.of("store", NetTestServer.STORE, "remote", "offsite",
                    "remote-store", NetTestServer.STORE, "sync-direction", "push", "owner", "bob@pbs"));

            List<String> log = run(local, job);
            assertTrue(String.join("\n", log).contains("skipping 1 group(s) in namespace '' the job's owner may not read"),
                    String.join("\n", log));
            assertTrue(log.getLast().endsWith("TASK OK"), String.join("\n", log));
            assertEquals(Set.of("vm/100"), groups(remote), "only bob's own group was pushed");

            auth.updateAcl("/datastore", "bob@pbs", "DatastoreReader", true, false); // Datastore.Read: every group
            log = run(local, job);
            assertTrue(log.getLast().endsWith("TASK OK"), String.join("\n", log));
            assertEquals(Set.of("vm/100", "vm/200"), groups(remote));
        }
    }

    /**
     * As PBS, a push with remove-vanished removes a vanished group only with Remote.DatastorePrune
     * and a vanished namespace only with Remote.DatastoreModify of the job's owner on the target;
     * what it may not remove stays, with a warning naming the missing privilege.
     */
    @Test
    void removeVanishedOnThePushTargetNeedsTheOwnersRemotePrivileges() throws Exception {
        try (NetTestServer remote = NetTestServer.startWithUsers(tmp.resolve("remote"));
             NetTestServer local = NetTestServer.startWithUsers(tmp.resolve("local"))) {
            AuthConfig auth = bobWithRemote(local, remote);
            auth.updateAcl("/remote/offsite", "bob@pbs", "RemoteSyncPushOperator", true, false); // no Prune, no Modify
            SyncServersTest.backup(local.datastore(), new BackupSnapshotRef(OWN, SyncServersTest.T1), 1, 1, 0, "bob@pbs");
            BackupNamespace old = BackupNamespace.parse("old");
            BackupGroupRef vanished = new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "300");
            SyncServersTest.backup(remote.datastore(), new BackupSnapshotRef(vanished, SyncServersTest.T1), 3, 1, 0,
                    NetTestServer.TOKEN_ID);
            SyncServersTest.backup(remote.datastore(), new BackupSnapshotRef(new BackupGroupRef(old, BackupType.CT, "1"),
                    SyncServersTest.T1), 4, 1, 0, NetTestServer.TOKEN_ID);
            JobConfig job = new JobConfig(JobKind.SYNC, "bob-push", Map.of("store", NetTestServer.STORE, "remote", "offsite",
                    "remote-store", NetTestServer.STORE, "sync-direction", "push", "owner", "bob@pbs",
                    "remove-vanished", "true"));
            String path = "/remote/offsite/" + NetTestServer.STORE;

            String log = String.join("\n", run(local, job));
            assertTrue(log.contains("failed to delete vanished group - Pruning remote datastore contents not allowed - "
                    + "missing permissions 'Remote.DatastorePrune' on '" + path + "'"), log);
            assertTrue(log.contains("failed to remove vanished namespace old - Pruning remote datastore namespaces not "
                    + "allowed - missing permissions 'Remote.DatastoreModify' on '" + path + "/old'"), log);
            assertEquals(Set.of("vm/100", "vm/300"), groups(remote), "the vanished group stays");
            assertTrue(remote.datastore().namespaceExists(old), "the vanished namespace stays");

            auth.updateAcl("/remote/offsite", "bob@pbs", "RemoteDatastorePowerUser", true, false); // + Prune
            log = String.join("\n", run(local, job));
            assertEquals(Set.of("vm/100"), groups(remote), log);
            assertTrue(remote.datastore().namespaceExists(old), "Prune is not enough for a namespace: " + log);

            auth.updateAcl("/remote/offsite", "bob@pbs", "RemoteDatastoreAdmin", true, false); // + Modify
            log = String.join("\n", run(local, job));
            assertTrue(!remote.datastore().namespaceExists(old), log);
        }
    }
}
