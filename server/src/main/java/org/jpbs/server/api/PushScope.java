package org.jpbs.server.api;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.datastore.jobs.JobConfig;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.auth.AclPaths;
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.server.auth.Privilege;
import org.jpbs.server.jobs.SyncTasks;

/**
 * Which local groups a scheduled sync job may send ({@code docs/sync.md#running}): as PBS, a push
 * job reads the local datastore as its {@code owner} (default {@code root@pam}): with
 * Datastore.Read on a group's namespace every group, with Datastore.Backup only the groups the
 * owner owns (owned by it, or by a token of the owner user), else none. A pull sends nothing
 * local: every remote group may be read (the remote's own ACLs decide). Before a push removes
 * what vanished on its target, the owner needs Remote.DatastorePrune (groups, snapshots) or
 * Remote.DatastoreModify (namespaces) there ({@link #target}).
 */
final class PushScope {
    private PushScope() {}

    /**
     * The owner's privileges on a push job's target, as PBS checks them before removing what
     * vanished there: on {@code /remote/<remote>/<remote-store>[/<ns>]}; a pull checks nothing.
     */
    static SyncTasks.TargetCheck target(Path configDir, JobConfig job) throws IOException {
        if (!"push".equals(job.get("sync-direction").orElse("pull"))) {
            return SyncTasks.TargetCheck.ANY;
        }
        String owner = job.get("owner").orElse("root@pam");
        FileAuthenticator auth = FileAuthenticator.open(configDir);
        String remote = job.get("remote").orElse("-");
        String store = job.get("remote-store").orElse("-");
        return (ns, privilege) -> {
            List<String> path = AclPaths.remote(remote, store, ns);
            long bit = java.util.Arrays.stream(Privilege.values()).filter(p -> p.text().equals(privilege))
                    .mapToLong(Privilege::bit).findFirst().orElseThrow(() -> new IOException("unknown privilege " + privilege));
            if ((auth.privileges(owner, path) & bit) == 0) {
                throw new IOException("missing permissions '" + privilege + "' on '" + AclPaths.toString(path) + "'");
            }
        };
    }

    /** The readable-group rule of {@code job} on the local datastore {@code ds}. */
    static Predicate<BackupGroupRef> of(Path configDir, JobConfig job, Datastore ds) throws IOException {
        if (!"push".equals(job.get("sync-direction").orElse("pull"))) {
            return g -> true;
        }
        String owner = job.get("owner").orElse("root@pam");
        FileAuthenticator auth = FileAuthenticator.open(configDir);
        return g -> {
            long privs = auth.privileges(owner, AclPaths.datastore(job.store(), g.ns()));
            if ((privs & Access.READ) != 0) {
                return true;
            }
            if ((privs & Access.BACKUP) == 0) {
                return false;
            }
            try {
                String groupOwner = ds.owner(g);
                return groupOwner.equals(owner) || (groupOwner.contains("!")
                        && groupOwner.substring(0, groupOwner.indexOf('!')).equals(owner));
            } catch (IOException e) {
                return false; // no owner file: nobody owns it
            }
        };
    }
}
