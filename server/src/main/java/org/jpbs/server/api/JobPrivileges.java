package org.jpbs.server.api;

import java.util.List;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.datastore.jobs.JobConfig;
import org.jpbs.server.auth.AclPaths;
import org.jpbs.server.auth.Privilege;
import org.jpbs.server.http.ApiException;

/**
 * Who may see, change and run which job, as PBS's API ({@code docs/jobs.md#rest-api}): prune
 * jobs Datastore.Audit (see) / Datastore.Modify (change, run) on the job's
 * {@code /datastore/<store>[/<ns>]}; verification jobs Datastore.Audit or Datastore.Verify (see) /
 * Datastore.Verify (change, run); remotes Remote.Audit on {@code /remote/<name>} (see) /
 * Remote.Modify on {@code /remote} (create) or {@code /remote/<name>}; sync jobs Datastore.Audit
 * on the local path and Remote.Audit on {@code /remote/<remote>/<remote-store>} (see) /
 * Datastore.Backup (and Datastore.Prune with {@code remove-vanished}, Datastore.Modify with an
 * {@code owner} other than the caller) locally and Remote.Read on the remote (change, run). Sync
 * jobs in push direction (PBS 3.3) as {@link #checkPush}; to see one, Datastore.Audit locally and
 * Remote.Audit on {@code /remote/<remote>/<remote-store>[/<remote-ns>]}.
 * A failed check is 403 {@code "permission check failed"}.
 */
final class JobPrivileges {
    static final long REMOTE_AUDIT = Privilege.REMOTE_AUDIT.bit();
    static final long REMOTE_MODIFY = Privilege.REMOTE_MODIFY.bit();
    static final long REMOTE_READ = Privilege.REMOTE_READ.bit();
    static final long REMOTE_DATASTORE_BACKUP = Privilege.REMOTE_DATASTORE_BACKUP.bit();
    static final long REMOTE_DATASTORE_PRUNE = Privilege.REMOTE_DATASTORE_PRUNE.bit();

    private JobPrivileges() {}

    private static long at(Access acc, List<String> path) {
        return acc.auth().privileges(acc.authid(), path);
    }

    private static long local(Access acc, JobConfig c) {
        return at(acc, AclPaths.datastore(c.store(), c.ns()));
    }

    private static long remote(Access acc, JobConfig c) {
        return at(acc, List.of("remote", c.props().get("remote"), c.props().get("remote-store")));
    }

    private static boolean push(JobConfig c) {
        return "push".equals(c.props().get("sync-direction"));
    }

    /** The push target's ACL path {@code /remote/<remote>/<remote-store>[/<remote-ns>]}. */
    private static long pushTarget(Access acc, JobConfig c) {
        String ns = c.props().get("remote-ns");
        return at(acc, AclPaths.remote(c.props().get("remote"), c.props().get("remote-store"),
                ns == null || ns.isEmpty() ? BackupNamespace.ROOT : BackupNamespace.parse(ns)));
    }

    /**
     * PBS's owner rule: the job's {@code owner} is the caller, or the caller is the user of the
     * owner token; without {@code owner} only {@code root@pam} owns the job.
     */
    private static boolean ownsJob(Access acc, JobConfig c) {
        String owner = c.props().get("owner");
        String me = acc.authid();
        if (owner == null) {
            return me.equals("root@pam");
        }
        return owner.equals(me) || (owner.contains("!") && !me.contains("!") && owner.substring(0, owner.indexOf('!')).equals(me));
    }

    /**
     * A sync job in push direction (PBS 3.3, {@code docs/jobs.md#rest-api}): Remote.DatastoreBackup
     * on the target's {@code /remote/<remote>/<remote-store>[/<remote-ns>]} (Remote.DatastorePrune
     * too with {@code remove-vanished}); locally Datastore.Read and Datastore.Audit, or
     * Datastore.Backup for the job's owner; a caller who does not own the job also needs
     * Datastore.Modify (as changing a group's owner).
     */
    private static boolean checkPush(Access acc, JobConfig c) {
        if (!c.props().containsKey("remote")) {
            return false; // a push always has a remote
        }
        long target = pushTarget(acc, c);
        if ((target & REMOTE_DATASTORE_BACKUP) == 0
                || (c.flag("remove-vanished") && (target & REMOTE_DATASTORE_PRUNE) == 0)) {
            return false;
        }
        long source = local(acc, c);
        boolean reads = (source & Access.READ) != 0 && (source & Access.AUDIT) != 0;
        if (ownsJob(acc, c)) {
            return reads || (source & Access.BACKUP) != 0;
        }
        return reads && (source & Access.MODIFY) != 0;
    }

    /** True if the caller may see the job or remote (listings skip the others). */
    static boolean canSee(Access acc, JobConfig c) {
        return switch (c.kind()) {
            case PRUNE -> (local(acc, c) & (Access.AUDIT | Access.MODIFY)) != 0;
            case VERIFY -> (local(acc, c) & (Access.AUDIT | Access.VERIFY)) != 0;
            case REMOTE -> (at(acc, List.of("remote", c.id())) & REMOTE_AUDIT) != 0;
            case SYNC -> (local(acc, c) & Access.AUDIT) != 0 && (push(c)
                    ? c.props().containsKey("remote") && (pushTarget(acc, c) & REMOTE_AUDIT) != 0
                    : !c.props().containsKey("remote") || (remote(acc, c) & REMOTE_AUDIT) != 0);
        };
    }

    /** As {@link #canSee} for a single read (prune: Datastore.Audit only, as PBS). */
    static void checkRead(Access acc, JobConfig c) {
        boolean ok = c.kind() == org.jpbs.datastore.jobs.JobKind.PRUNE ? (local(acc, c) & Access.AUDIT) != 0 : canSee(acc, c);
        if (!ok) {
            throw forbidden();
        }
    }

    /** The caller may create, change, remove or run the job (checked on the job as it is and as it will be). */
    static void checkModify(Access acc, JobConfig c) {
        boolean ok = switch (c.kind()) {
            case PRUNE -> (local(acc, c) & Access.MODIFY) != 0;
            case VERIFY -> (local(acc, c) & Access.VERIFY) != 0;
            case REMOTE -> canModifyRemote(acc, c.id());
            case SYNC -> push(c) ? checkPush(acc, c) : (local(acc, c) & Access.BACKUP) != 0
                    && (!c.flag("remove-vanished") || (local(acc, c) & Access.PRUNE) != 0)
                    && (ownsSyncedGroups(acc, c) || (local(acc, c) & Access.MODIFY) != 0)
                    && (!c.props().containsKey("remote") || (remote(acc, c) & REMOTE_READ) != 0);
        };
        if (!ok) {
            throw forbidden();
        }
    }

    /**
     * PBS {@code check_sync_job_modify_access}: the synced groups get the job's {@code owner}
     * (default {@code root@pam}); naming anyone but the caller (or a token of the calling user)
     * is changing ownership and needs Datastore.Modify.
     */
    private static boolean ownsSyncedGroups(Access acc, JobConfig c) {
        String owner = c.props().getOrDefault("owner", "root@pam");
        if (owner.equals(acc.authid())) {
            return true;
        }
        int bang = owner.indexOf('!');
        return bang > 0 && acc.authid().indexOf('!') < 0 && owner.substring(0, bang).equals(acc.authid());
    }

    /** Remote.Modify on {@code /remote/<name>} (whether the remote exists or not). */
    static boolean canModifyRemote(Access acc, String name) {
        return (at(acc, List.of("remote", name)) & REMOTE_MODIFY) != 0;
    }

    /** Creating a remote: Remote.Modify on {@code /remote}. */
    static void checkCreateRemote(Access acc) {
        if ((at(acc, List.of("remote")) & REMOTE_MODIFY) == 0) {
            throw forbidden();
        }
    }

    static ApiException forbidden() {
        return new ApiException(403, "permission check failed");
    }
}
