package org.jpbs.server.api;

import java.io.IOException;
import java.util.List;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.datastore.config.DatastoreCache;
import org.jpbs.datastore.config.DatastoreHandle;
import org.jpbs.datastore.config.DatastoreLookupException;
import org.jpbs.datastore.config.Operation;
import org.jpbs.server.auth.AclPaths;
import org.jpbs.server.auth.Authid;
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.server.auth.Privilege;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.HiddenPaths;

/**
 * The permission checks of one authenticated REST call ({@code docs/api.md#conventions-as-pbs}, {@code docs/api.md#admindatastorestore}), PBS style: "full" privileges grant access to every group of a
 * namespace, "partial" ones (typically {@code Datastore.Backup}) only to the groups the caller
 * owns. As in PBS, the privileges are checked before the datastore is looked up: a caller
 * without privileges on an unknown datastore gets the same 403 as on a known one (no
 * information leak; vectors {@code real-pbs/api/err-unknown-store.*}), one with them (root,
 * or a role on {@code /datastore}) gets 400 {@code "no such datastore '<name>'"}.
 *
 * @param auth   the authenticator (privilege lookups)
 * @param authid the caller
 * @param stores the datastore cache
 */
record Access(FileAuthenticator auth, String authid, DatastoreCache stores) {
    static final long AUDIT = Privilege.DATASTORE_AUDIT.bit();
    static final long MODIFY = Privilege.DATASTORE_MODIFY.bit();
    static final long READ = Privilege.DATASTORE_READ.bit();
    static final long BACKUP = Privilege.DATASTORE_BACKUP.bit();
    static final long PRUNE = Privilege.DATASTORE_PRUNE.bit();
    static final long VERIFY = Privilege.DATASTORE_VERIFY.bit();
    /**
     * PBS {@code NS_PRIVS_OK}: a namespace is visible to a job's group listing only with one of
     * these privileges on it (Prune and Verify alone do not count).
     */
    static final long NS_PRIVS_OK = MODIFY | READ | BACKUP | AUDIT;

    /** Privileges on {@code /datastore/<store>[/<ns>...]}. */
    long privileges(String store, BackupNamespace ns) {
        return auth.privileges(authid, AclPaths.datastore(store, ns));
    }

    /**
     * PBS {@code check_ns_privs_full}: true if the caller has one of {@code full}, false if only
     * one of {@code partial} (owner checks needed).
     *
     * @throws ApiException 403 {@code "permission check failed - missing <privs> on /datastore/..."}
     *                      if it has neither (whether the store exists or not)
     */
    boolean checkFull(String store, BackupNamespace ns, long full, long partial) {
        long privs = privileges(store, ns);
        if ((privs & full) != 0) {
            return true;
        }
        if ((privs & partial) != 0) {
            return false;
        }
        throw new ApiException(403, "permission check failed - missing " + Privilege.joined(full | partial) + " on "
                + AclPaths.toString(AclPaths.datastore(store, ns)));
    }

    /**
     * True if the datastore is configured (an in-memory check of the cached config).
     *
     * @throws ApiException 400 with the config's error if {@code datastore.cfg} is broken
     */
    boolean exists(String store) {
        try {
            return stores.knows(store);
        } catch (DatastoreLookupException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }

    /**
     * For a call that reads no datastore file, after a permission check that passed: as PBS's
     * lookup, 400 {@code "no such datastore '<name>'"} unless the datastore is configured.
     *
     * @throws ApiException 400 if it is not (or if {@code datastore.cfg} is broken)
     */
    void requireKnown(String store) {
        if (!exists(store)) {
            throw ApiException.badRequest("no such datastore '" + store + "'");
        }
    }

    /**
     * Looks the datastore up for {@code op} (call after a permission check that passed); the
     * caller closes the handle.
     *
     * @throws IOException the maintenance refusal (400) or an unknown store
     */
    DatastoreHandle lookup(String store, Operation op) throws IOException {
        DatastoreHandle h = stores.lookup(store, op);
        HiddenPaths.addRoot(h.datastore().root(), HiddenPaths.DATASTORE); // error answers show paths relative to it
        return h;
    }

    /**
     * PBS {@code check_backup_owner}: the caller is the owner, or a user calling about a group
     * owned by one of its tokens.
     */
    boolean owns(String owner) {
        if (owner.equals(authid)) {
            return true;
        }
        try {
            Authid o = Authid.parse(owner);
            Authid me = Authid.parse(authid);
            return o.isToken() && !me.isToken() && o.user().equals(me);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * Throws unless {@link #owns}.
     *
     * @throws ApiException 400 {@code "backup owner check failed (<authid> != <owner>)"}
     */
    void checkOwner(String owner) {
        if (!owns(owner)) {
            throw ApiException.badRequest(new org.jpbs.core.errors.OwnerMismatchException(authid, owner).getMessage());
        }
    }

    /**
     * The groups a job may touch for this caller (PBS {@code ListAccessibleBackupGroups} with an
     * owner): per namespace, none without one of {@link #NS_PRIVS_OK}; every group with one of
     * {@code overrideOwner}; otherwise, if the caller has all of {@code ownerAnd}, the groups
     * it {@link #owns}. A group whose owner cannot be read is left out.
     *
     * @param ds the datastore the job runs on (owners are read from it)
     */
    GroupScope jobScope(String store, org.jpbs.datastore.snapshot.Datastore ds, long overrideOwner, long ownerAnd) {
        java.util.Map<BackupNamespace, Long> privs = new java.util.concurrent.ConcurrentHashMap<>();
        return new GroupScope(g -> {
            long p = privs.computeIfAbsent(g.ns(), ns -> privileges(store, ns));
            if ((p & NS_PRIVS_OK) == 0) {
                return false;
            }
            if ((p & overrideOwner) != 0) {
                return true;
            }
            if ((p & ownerAnd) != ownerAnd) {
                return false;
            }
            try {
                return owns(ds.owner(g));
            } catch (IOException e) {
                return false;
            }
        }, authid);
    }

    /**
     * PBS {@code check_privs_and_load_store} for one group, after {@link #checkFull} said the
     * caller has only the partial privilege: the caller must own the group.
     *
     * @throws ApiException 400 {@code "backup owner check failed (<authid> != <owner>)"}, or 400
     *                      {@code "backup group '<group>' does not exist"} if it has no owner
     */
    void checkGroupOwner(org.jpbs.datastore.snapshot.Datastore ds, org.jpbs.core.api.BackupGroupRef group) {
        String owner;
        try {
            owner = ds.owner(group);
        } catch (IOException e) {
            throw ApiException.badRequest("backup group '" + group + "' does not exist");
        }
        checkOwner(owner);
    }

    /** PBS {@code any_privs_below} on {@code /datastore/<store>}. */
    boolean anyPrivsBelow(String store, long privs) {
        return auth.anyPrivsBelow(authid, List.of("datastore", store), privs);
    }
}
