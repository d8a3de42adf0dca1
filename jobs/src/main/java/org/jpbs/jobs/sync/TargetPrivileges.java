package org.jpbs.jobs.sync;

import java.io.IOException;
import org.jpbs.core.api.BackupNamespace;

/**
 * What a push job's user may do on the remote it pushes to ({@code docs/sync.md#push}), checked
 * as PBS does: Remote.DatastoreModify before creating a namespace on the target, and before
 * removing what vanished Remote.DatastorePrune on the target namespace for a vanished group or
 * snapshot, Remote.DatastoreModify for a vanished namespace. The server checks them on {@code /remote/<remote>/<store>[/<ns>]} for the
 * job's owner; a sync without that knowledge ({@code jpbs push} run by hand) allows everything
 * ({@link #ALL}: the remote server's own ACLs still decide).
 */
@FunctionalInterface
public interface TargetPrivileges {
    /** Needed to create a namespace on the target, or to remove a vanished one. */
    String MODIFY = "Remote.DatastoreModify";
    /** Needed to remove a vanished group or snapshot. */
    String PRUNE = "Remote.DatastorePrune";
    /** No check. */
    TargetPrivileges ALL = (ns, privilege) -> { };

    /**
     * Checks one privilege on a target namespace.
     *
     * @throws IOException {@code "missing permissions '<privilege>' on '/remote/<remote>/<store>[/<ns>]'"}
     */
    void require(BackupNamespace targetNs, String privilege) throws IOException;
}
