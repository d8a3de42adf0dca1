package org.jpbs.server.api;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Predicate;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.datastore.jobs.JobConfig;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.auth.AclPaths;
import org.jpbs.server.auth.FileAuthenticator;

/**
 * Which local groups a scheduled sync job may send ({@code docs/sync.md#running}): as PBS, a push
 * job reads the local datastore as its {@code owner} (default {@code root@pam}): with
 * Datastore.Read on a group's namespace every group, with Datastore.Backup only the groups the
 * owner owns (owned by it, or by a token of the owner user), else none. A pull sends nothing
 * local: every remote group may be read (the remote's own ACLs decide).
 */
final class PushScope {
    private PushScope() {}

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
