package org.jpbs.server.jobs;

import java.io.IOException;
import java.util.function.Predicate;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.datastore.config.DatastoreHandle;
import org.jpbs.datastore.jobs.JobConfig;
import org.jpbs.datastore.task.TaskJob;

/**
 * Where sync jobs plug into the scheduler ({@code docs/sync.md#running}): the sync engine needs
 * the network client, which the server does not depend on, so the composition root
 * ({@code jpbs serve}) hands it in. {@link #NONE} refuses every sync job.
 */
@FunctionalInterface
public interface SyncTasks {
    /** No sync engine: a sync job fails to start with a message saying so. */
    SyncTasks NONE = (job, store, readable, target) -> {
        throw new IOException("sync job '" + job.id() + "': this server was started without the sync engine");
    };

    /**
     * The task body of a sync job on the local datastore {@code store} (open for the task's run).
     *
     * @param readable the source groups the job may send (a push job's owner may read them;
     *                 the others are skipped)
     * @param target   the job owner's privileges on the push target, checked before removing
     *                 what vanished there
     * @throws IOException to refuse the start
     */
    TaskJob task(JobConfig job, DatastoreHandle store, Predicate<BackupGroupRef> readable, TargetCheck target)
            throws IOException;

    /** A push job owner's privileges on its target ({@code /remote/<remote>/<remote-store>[/<ns>]}). */
    @FunctionalInterface
    interface TargetCheck {
        /** Everything allowed (a pull). */
        TargetCheck ANY = (ns, privilege) -> { };

        /**
         * Checks one privilege (e.g. {@code Remote.DatastoreModify}) on a namespace of the target.
         *
         * @throws IOException {@code "missing permissions '<privilege>' on '<acl path>'"}
         */
        void require(BackupNamespace remoteNs, String privilege) throws IOException;
    }
}
