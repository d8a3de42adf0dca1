package org.jpbs.server.api;

import java.util.Map;
import org.jpbs.datastore.config.DatastoreHandle;
import org.jpbs.datastore.task.TaskJob;
import org.jpbs.server.http.ApiException;

/**
 * THE HOOK where the admin API starts garbage collection, prune and verify ({@code docs/api.md#admindatastorestore}: {@code POST admin/datastore/{store}/gc}, {@code .../prune}
 * with {@code use-task}, {@code .../prune-datastore}, {@code .../verify}). The API has already
 * checked the privileges (and the owner of a single group) and looked the datastore up for a
 * write (so the maintenance mode was enforced); a job over many groups gets the
 * {@link GroupScope} of its caller and must skip every group outside it; it runs the returned job as a task (worker type {@code garbage_collection},
 * {@code prune}, {@code verify}, worker id the store name) and answers its UPID. The handle is
 * closed when the task ends.
 *
 * <p>Until GC, prune and verify exist, {@link #NOT_IMPLEMENTED} answers every start with 501
 * and a message naming the job.
 */
public interface DatastoreJobs {
    /** Answers 501 {@code "<job> is not implemented yet"} for every job. */
    DatastoreJobs NOT_IMPLEMENTED = new DatastoreJobs() {};

    /**
     * The garbage collection of a datastore (reads its tuning: {@code ds.config().tuning()}).
     *
     * @throws ApiException to refuse the start (the task is not created)
     */
    default TaskJob garbageCollection(DatastoreHandle ds) {
        throw new ApiException(501, "garbage collection is not implemented yet");
    }

    /**
     * Prune of one group, done at once ({@code POST .../prune} without {@code use-task}); the
     * answer lists every snapshot with its verdict.
     *
     * @param params as {@link #prune}
     * @throws ApiException to refuse or report failure
     */
    default java.util.List<org.jpbs.datastore.prune.PruneDecision> pruneGroup(DatastoreHandle ds,
            Map<String, String> params) {
        throw new ApiException(501, "prune is not implemented yet");
    }

    /**
     * Prune of a datastore or group.
     *
     * @param params the validated request parameters ({@code keep-*}, {@code ns}, {@code backup-type},
     *               {@code backup-id}, {@code dry-run}, {@code max-depth})
     * @param scope  the groups the caller may prune (a group outside it is skipped, unnamed in the log)
     * @throws ApiException to refuse the start
     */
    default TaskJob prune(DatastoreHandle ds, Map<String, String> params, GroupScope scope) {
        throw new ApiException(501, "prune is not implemented yet");
    }

    /**
     * Verify of a datastore, group or snapshot.
     *
     * @param params the validated request parameters ({@code ignore-verified}, {@code outdated-after},
     *               {@code ns}, {@code max-depth}, snapshot selectors)
     * @param scope  the groups the caller may verify (a group outside it is skipped, unnamed in the log)
     * @throws ApiException to refuse the start
     */
    default TaskJob verify(DatastoreHandle ds, Map<String, String> params, GroupScope scope) {
        throw new ApiException(501, "verify is not implemented yet");
    }
}
