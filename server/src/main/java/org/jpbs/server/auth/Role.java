package org.jpbs.server.auth;

import static org.jpbs.server.auth.Privilege.DATASTORE_AUDIT;
import static org.jpbs.server.auth.Privilege.DATASTORE_BACKUP;
import static org.jpbs.server.auth.Privilege.DATASTORE_MODIFY;
import static org.jpbs.server.auth.Privilege.DATASTORE_PRUNE;
import static org.jpbs.server.auth.Privilege.DATASTORE_READ;
import static org.jpbs.server.auth.Privilege.DATASTORE_VERIFY;
import static org.jpbs.server.auth.Privilege.REMOTE_AUDIT;
import static org.jpbs.server.auth.Privilege.REMOTE_DATASTORE_BACKUP;
import static org.jpbs.server.auth.Privilege.REMOTE_DATASTORE_MODIFY;
import static org.jpbs.server.auth.Privilege.REMOTE_DATASTORE_PRUNE;
import static org.jpbs.server.auth.Privilege.REMOTE_MODIFY;
import static org.jpbs.server.auth.Privilege.REMOTE_READ;
import static org.jpbs.server.auth.Privilege.SYS_AUDIT;
import static org.jpbs.server.auth.Privilege.TAPE_AUDIT;
import static org.jpbs.server.auth.Privilege.TAPE_MODIFY;
import static org.jpbs.server.auth.Privilege.TAPE_READ;
import static org.jpbs.server.auth.Privilege.TAPE_WRITE;
import static org.jpbs.server.auth.Privilege.mask;

import java.util.Optional;

/**
 * The PBS roles and their privileges ({@code docs/api.md#conventions-as-pbs} table). A role name in
 * {@code acl.cfg} is {@link #text()}, e.g. {@code DatastoreAdmin}.
 */
public enum Role {
    ADMIN("Admin", Privilege.all()),
    NO_ACCESS("NoAccess", 0),
    AUDIT("Audit", mask(SYS_AUDIT, DATASTORE_AUDIT)),
    DATASTORE_ADMIN("DatastoreAdmin", mask(DATASTORE_AUDIT, DATASTORE_MODIFY, DATASTORE_READ, DATASTORE_VERIFY,
            DATASTORE_BACKUP, DATASTORE_PRUNE)),
    DATASTORE_READER("DatastoreReader", mask(DATASTORE_AUDIT, DATASTORE_VERIFY, DATASTORE_READ)),
    DATASTORE_BACKUP_ROLE("DatastoreBackup", mask(DATASTORE_BACKUP)),
    DATASTORE_POWER_USER("DatastorePowerUser", mask(DATASTORE_PRUNE, DATASTORE_BACKUP)),
    DATASTORE_AUDIT_ROLE("DatastoreAudit", mask(DATASTORE_AUDIT)),
    REMOTE_AUDIT_ROLE("RemoteAudit", mask(REMOTE_AUDIT)),
    REMOTE_ADMIN("RemoteAdmin", mask(REMOTE_AUDIT, REMOTE_MODIFY, REMOTE_READ)),
    REMOTE_SYNC_OPERATOR("RemoteSyncOperator", mask(REMOTE_AUDIT, REMOTE_READ)),
    REMOTE_SYNC_PUSH_OPERATOR("RemoteSyncPushOperator", mask(REMOTE_AUDIT, REMOTE_DATASTORE_BACKUP)),
    REMOTE_DATASTORE_POWER_USER("RemoteDatastorePowerUser", mask(REMOTE_AUDIT, REMOTE_DATASTORE_BACKUP,
            REMOTE_DATASTORE_PRUNE)),
    REMOTE_DATASTORE_ADMIN("RemoteDatastoreAdmin", mask(REMOTE_AUDIT, REMOTE_DATASTORE_BACKUP, REMOTE_DATASTORE_MODIFY,
            REMOTE_DATASTORE_PRUNE)),
    TAPE_AUDIT_ROLE("TapeAudit", mask(TAPE_AUDIT)),
    TAPE_ADMIN("TapeAdmin", mask(TAPE_AUDIT, TAPE_MODIFY, TAPE_READ, TAPE_WRITE)),
    TAPE_OPERATOR("TapeOperator", mask(TAPE_AUDIT, TAPE_READ, TAPE_WRITE)),
    TAPE_READER("TapeReader", mask(TAPE_AUDIT, TAPE_READ));

    private final String text;
    private final long privileges;

    Role(String text, long privileges) {
        this.text = text;
        this.privileges = privileges;
    }

    /** The name used in {@code acl.cfg} and the API, e.g. {@code DatastoreBackup}. */
    public String text() {
        return text;
    }

    /** The privilege mask ({@link Privilege#bit()}). */
    public long privileges() {
        return privileges;
    }

    /** The role called {@code name} (exact, case-sensitive). */
    public static Optional<Role> byName(String name) {
        for (Role r : values()) {
            if (r.text.equals(name)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    /**
     * The role called {@code name}.
     *
     * @throws IllegalArgumentException {@code "unknown role '<name>'"}
     */
    public static Role parse(String name) {
        return byName(name).orElseThrow(() -> new IllegalArgumentException("unknown role '" + name + "'"));
    }
}
