package org.jpbs.server.auth;

import java.util.ArrayList;
import java.util.List;

/**
 * The PBS privileges ({@code docs/api.md#conventions-as-pbs}), in the PBS order, which is also the
 * order in which error messages name them. A set of privileges is a {@code long} bit mask,
 * bit {@link #ordinal()} per privilege.
 */
public enum Privilege {
    SYS_AUDIT("Sys.Audit"),
    SYS_MODIFY("Sys.Modify"),
    SYS_POWER_MANAGEMENT("Sys.PowerManagement"),
    DATASTORE_AUDIT("Datastore.Audit"),
    DATASTORE_ALLOCATE("Datastore.Allocate"),
    DATASTORE_MODIFY("Datastore.Modify"),
    DATASTORE_READ("Datastore.Read"),
    DATASTORE_VERIFY("Datastore.Verify"),
    DATASTORE_BACKUP("Datastore.Backup"),
    DATASTORE_PRUNE("Datastore.Prune"),
    PERMISSIONS_MODIFY("Permissions.Modify"),
    REMOTE_AUDIT("Remote.Audit"),
    REMOTE_MODIFY("Remote.Modify"),
    REMOTE_READ("Remote.Read"),
    /** Create backups on a remote's datastore (sync jobs in push direction, PBS 3.3). */
    REMOTE_DATASTORE_BACKUP("Remote.DatastoreBackup"),
    /** Remove namespaces on a remote's datastore (push with remove-vanished). */
    REMOTE_DATASTORE_MODIFY("Remote.DatastoreModify"),
    /** Remove snapshots and groups on a remote's datastore (push with remove-vanished). */
    REMOTE_DATASTORE_PRUNE("Remote.DatastorePrune"),
    SYS_CONSOLE("Sys.Console"),
    TAPE_AUDIT("Tape.Audit"),
    TAPE_MODIFY("Tape.Modify"),
    TAPE_WRITE("Tape.Write"),
    TAPE_READ("Tape.Read"),
    REALM_ALLOCATE("Realm.Allocate");

    private final String text;

    Privilege(String text) {
        this.text = text;
    }

    /** The PBS name, e.g. {@code Datastore.Backup}. */
    public String text() {
        return text;
    }

    /** This privilege's bit. */
    public long bit() {
        return 1L << ordinal();
    }

    /** The mask of the given privileges. */
    public static long mask(Privilege... privs) {
        long m = 0;
        for (Privilege p : privs) {
            m |= p.bit();
        }
        return m;
    }

    /** The mask of every privilege. */
    public static long all() {
        return (1L << values().length) - 1;
    }

    /** The names of the privileges in {@code mask}, in PBS order. */
    public static List<String> names(long mask) {
        List<String> out = new ArrayList<>();
        for (Privilege p : values()) {
            if ((mask & p.bit()) != 0) {
                out.add(p.text);
            }
        }
        return out;
    }

    /** {@link #names} joined with {@code |}, as PBS error messages show them. */
    public static String joined(long mask) {
        return String.join("|", names(mask));
    }
}
