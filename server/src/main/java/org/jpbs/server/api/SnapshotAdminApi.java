package org.jpbs.server.api;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.datastore.config.DatastoreHandle;
import org.jpbs.datastore.config.Operation;
import org.jpbs.core.errors.LockedException;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.auth.Authid;
import org.jpbs.server.routing.ApiParams;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.RestResponse;

/**
 * The calls that change or show one group or snapshot under {@code /api2/json/admin/datastore/{store}}
 * (PBS {@code src/api2/admin/datastore.rs}; see {@code docs/api.md}):
 * <ul>
 * <li>{@code GET|PUT notes} (snapshot; the manifest's {@code unprotected.notes}),</li>
 * <li>{@code GET|PUT group-notes} (the group's {@code notes} file),</li>
 * <li>{@code GET|PUT protected} (the snapshot's {@code .protected} marker),</li>
 * <li>{@code POST change-owner} (the group's {@code owner} file),</li>
 * <li>{@code POST upload-backup-log} (the snapshot's {@code client.log.blob}),</li>
 * <li>{@code DELETE groups} (a whole group, protected snapshots kept).</li>
 * </ul>
 * Read needs {@code Datastore.Audit}, or {@code Datastore.Backup} as the group's owner; write
 * {@code Datastore.Modify}, or {@code Datastore.Backup} as owner (PBS
 * {@code check_privs_and_load_store}); the upload only the owner. Order of checks as PBS:
 * parameters (400), privileges on the namespace (403), datastore lookup (maintenance), owner
 * (400 {@code "backup owner check failed (...)"}). Stateless.
 */
final class SnapshotAdminApi {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    /** Length limits of PBS's Authid schema ({@code pbs-api-types}: min_length 3, max_length 64). */
    static final int AUTHID_MIN = 3;
    static final int AUTHID_MAX = 64;

    private SnapshotAdminApi() {}

    /** {@code GET .../notes}: the snapshot's notes, {@code ""} if none. */
    static RestResponse getNotes(Access acc, String store, ApiParams p) throws IOException {
        BackupSnapshotRef ref = snapshot(p);
        try (DatastoreHandle h = check(acc, store, ref.group(), Access.AUDIT, Access.BACKUP, Operation.READ)) {
            Datastore ds = h.datastore();
            requireSnapshot(ds, ref);
            try {
                var n = ds.openSnapshot(ref).manifest().unprotected().get("notes");
                return RestResponse.data(F.textNode(n != null && n.isTextual() ? n.textValue() : ""));
            } catch (NoSuchFileException e) {
                throw ApiException.badRequest("snapshot " + describe(ref) + " does not exist");
            } catch (IOException e) {
                throw ApiException.badRequest("unable to load the manifest of snapshot " + describe(ref));
            }
        }
    }

    /** {@code PUT .../notes} ({@code notes}): rewrites the manifest's {@code unprotected.notes}; null. */
    static RestResponse setNotes(Access acc, String store, ApiParams p) throws IOException {
        BackupSnapshotRef ref = snapshot(p);
        String notes = p.required("notes");
        try (DatastoreHandle h = check(acc, store, ref.group(), Access.MODIFY, Access.BACKUP, Operation.WRITE)) {
            Datastore ds = h.datastore();
            requireSnapshot(ds, ref);
            try {
                ds.updateManifest(ref, m -> m.unprotected().put("notes", notes));
            } catch (NoSuchFileException e) {
                throw ApiException.badRequest("snapshot " + describe(ref) + " does not exist");
            } catch (LockedException e) {
                throw ApiException.badRequest("unable to update manifest blob - " + e.getMessage());
            }
            return RestResponse.data(NullNode.getInstance());
        }
    }

    /** {@code GET .../group-notes}: the group's notes, {@code ""} if none. */
    static RestResponse getGroupNotes(Access acc, String store, ApiParams p) throws IOException {
        BackupGroupRef group = group(p);
        try (DatastoreHandle h = check(acc, store, group, Access.AUDIT, Access.BACKUP, Operation.READ)) {
            return RestResponse.data(F.textNode(h.datastore().groupNotes(group)));
        }
    }

    /** {@code PUT .../group-notes} ({@code notes}): replaces the group's {@code notes} file; null. */
    static RestResponse setGroupNotes(Access acc, String store, ApiParams p) throws IOException {
        BackupGroupRef group = group(p);
        String notes = p.required("notes");
        try (DatastoreHandle h = check(acc, store, group, Access.MODIFY, Access.BACKUP, Operation.WRITE)) {
            try {
                h.datastore().setGroupNotes(group, notes);
            } catch (NoSuchFileException e) {
                throw noGroup(group);
            }
            return RestResponse.data(NullNode.getInstance());
        }
    }

    /**
     * {@code DELETE .../groups} (GROUP, {@code error-on-protected}, default true): removes the
     * group with all its snapshots except protected ones, under the exclusive group lock (so a
     * running backup, a reader or a verify of the group refuses it). Answers null as PBS 3.x;
     * if protected snapshots were kept, 400 {@code "group only partially deleted due to protected
     * snapshots"} unless {@code error-on-protected=false}. What could be removed stays removed.
     * Needs {@code Datastore.Modify}, or {@code Datastore.Prune} as owner.
     */
    static RestResponse deleteGroup(Access acc, String store, ApiParams p) throws IOException {
        BackupGroupRef group = group(p);
        boolean errorOnProtected = p.bool("error-on-protected", true);
        try (DatastoreHandle h = check(acc, store, group, Access.MODIFY, Access.PRUNE, Operation.WRITE)) {
            Datastore ds = h.datastore();
            if (!Files.isDirectory(ds.groupDir(group), LinkOption.NOFOLLOW_LINKS)) {
                throw noGroup(group);
            }
            boolean all = ds.removeGroup(group); // locked: 400 with its message (ErrorMapper)
            if (!all && errorOnProtected) {
                throw ApiException.badRequest("group only partially deleted due to protected snapshots");
            }
            return RestResponse.data(NullNode.getInstance());
        }
    }

    /** {@code GET .../protected}: whether the snapshot has its {@code .protected} marker. */
    static RestResponse getProtection(Access acc, String store, ApiParams p) throws IOException {
        BackupSnapshotRef ref = snapshot(p);
        try (DatastoreHandle h = check(acc, store, ref.group(), Access.AUDIT, Access.BACKUP, Operation.READ)) {
            return RestResponse.data(F.booleanNode(h.datastore().isProtected(ref)));
        }
    }

    /** {@code PUT .../protected} ({@code protected}, boolean, required): creates or removes the marker; null. */
    static RestResponse setProtection(Access acc, String store, ApiParams p) throws IOException {
        BackupSnapshotRef ref = snapshot(p);
        boolean protect = p.bool("protected", false);
        try (DatastoreHandle h = check(acc, store, ref.group(), Access.MODIFY, Access.BACKUP, Operation.WRITE)) {
            try {
                h.datastore().setProtected(ref, protect);
            } catch (NoSuchFileException e) {
                throw ApiException.badRequest("snapshot " + describe(ref) + " does not exist!");
            } // locked: 400 with its message (ErrorMapper)
            return RestResponse.data(NullNode.getInstance());
        }
    }

    /**
     * {@code POST .../change-owner} ({@code backup-type}, {@code backup-id}, {@code new-owner},
     * {@code ns}): with {@code Datastore.Modify} any change; with only {@code Datastore.Backup} a
     * change between a user and its own tokens (or between two of its tokens), else 401
     * {@code "<me> does not have permission to change owner of backup group '<g>' to <new>"};
     * the new owner must be an active user or token. Null.
     */
    static RestResponse changeOwner(Access acc, String store, ApiParams p) throws IOException {
        BackupGroupRef group = group(p);
        String newOwnerText = p.required("new-owner");
        Authid newOwner = Authid.parse(newOwnerText); // checked by checkNewOwner
        boolean full = acc.checkFull(store, group.ns(), Access.MODIFY, Access.BACKUP);
        try (DatastoreHandle h = acc.lookup(store, Operation.WRITE)) {
            Datastore ds = h.datastore();
            // with Datastore.Modify the old owner is not read (PBS): a group that lost its owner
            // file can so be given one again
            if (!full && !mayHandOver(Authid.parse(owner(ds, group)), newOwner, acc.authid())) {
                throw new ApiException(401, acc.authid() + " does not have permission to change owner of backup group '"
                        + group.type().text() + "/" + group.id() + "' to " + newOwner);
            }
            if (!acc.auth().state().users().isActive(newOwner, java.time.Instant.now().getEpochSecond())) {
                throw ApiException.badRequest((newOwner.isToken() ? "API token" : "user") + " '" + newOwner
                        + "' is inactive or non-existent");
            }
            try {
                ds.setOwner(group, newOwner.toString());
            } catch (NoSuchFileException e) {
                throw noGroup(group);
            }
            return RestResponse.data(NullNode.getInstance());
        }
    }

    /** The check of a required {@code protected} boolean. */
    static void checkProtected(ApiParams p) {
        if (p.text("protected").isEmpty()) {
            throw ApiException.badParam("protected", "parameter is missing and it is not optional.");
        }
        p.bool("protected", false);
    }

    /**
     * The check of {@code new-owner}: PBS's Authid schema, 3..64 characters (Unicode scalar
     * values) checked before the pattern.
     */
    static void checkNewOwner(ApiParams p) {
        String v = p.required("new-owner");
        int chars = v.codePointCount(0, v.length());
        if (chars < AUTHID_MIN) {
            throw ApiException.badParam("new-owner", "value must be at least " + AUTHID_MIN + " characters long");
        }
        if (chars > AUTHID_MAX) {
            throw ApiException.badParam("new-owner", "value may only be " + AUTHID_MAX + " characters long");
        }
        try {
            Authid.parse(v);
        } catch (IllegalArgumentException e) {
            throw ApiException.badParam("new-owner", "value does not match the regex pattern");
        }
    }

    /**
     * PBS's rule for a change of owner with only {@code Datastore.Backup}: token to token of the
     * same user (the caller), token to its user (the caller), or the caller to one of its tokens.
     */
    static boolean mayHandOver(Authid owner, Authid newOwner, String caller) {
        Authid me;
        try {
            me = Authid.parse(caller);
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (owner.isToken() && newOwner.isToken()) {
            return owner.user().equals(newOwner.user()) && owner.user().equals(me);
        }
        if (owner.isToken()) {
            return owner.user().equals(me) && newOwner.equals(me);
        }
        if (newOwner.isToken()) {
            return owner.equals(me) && newOwner.user().equals(me);
        }
        return false;
    }

    /**
     * {@code POST .../upload-backup-log} (snapshot parameters in the query; the body an encoded
     * DataBlob): only the group's owner; refused if the snapshot has a log already
     * ({@code "backup already contains a log."}); the blob's magic and CRC are checked; stored
     * as {@code client.log.blob} (not entered in the manifest). Null.
     */
    static RestResponse uploadBackupLog(Access acc, String store, ApiParams p, byte[] body) throws IOException {
        BackupSnapshotRef ref = snapshot(p);
        try (DatastoreHandle h = check(acc, store, ref.group(), 0, Access.BACKUP, Operation.WRITE)) {
            Datastore ds = h.datastore();
            requireSnapshot(ds, ref);
            if (Files.exists(ds.snapshotDir(ref).resolve(org.jpbs.datastore.snapshot.DatastoreLayout.CLIENT_LOG),
                    LinkOption.NOFOLLOW_LINKS)) {
                throw alreadyHasLog();
            }
            checkBlob(body);
            try {
                if (!ds.addClientLog(ref, body)) {
                    throw alreadyHasLog();
                }
            } catch (NoSuchFileException e) {
                throw ApiException.badRequest("snapshot " + describe(ref) + " does not exist");
            }
            return RestResponse.data(NullNode.getInstance());
        }
    }

    private static ApiException alreadyHasLog() {
        return ApiException.badRequest("backup already contains a log.");
    }

    /** As PBS {@code DataBlob::load_from_reader}: known magic, whole header, matching CRC. */
    private static void checkBlob(byte[] body) {
        if (body.length < org.jpbs.core.FileFormats.BLOB_HEADER_SIZE) {
            throw ApiException.badRequest("blob too small (" + body.length + " bytes).");
        }
        DataBlob blob;
        try {
            blob = DataBlob.wrap(body, "client.log.blob");
        } catch (CorruptDataException e) {
            throw ApiException.badRequest("unable to parse raw blob - wrong magic");
        }
        if (blob.storedCrc() != blob.computeCrc()) {
            throw ApiException.badRequest("Data blob has wrong CRC checksum.");
        }
    }

    // ---- shared checks ------------------------------------------------------------------

    /**
     * PBS {@code check_privs_and_load_store}: privileges on the group's namespace ({@code full}
     * for any group, {@code partial} only for owned ones), the datastore lookup for {@code op},
     * then the owner check if only {@code partial} applied. The caller closes the handle.
     */
    private static DatastoreHandle check(Access acc, String store, BackupGroupRef group, long full, long partial,
                                         Operation op) throws IOException {
        boolean all = acc.checkFull(store, group.ns(), full, partial);
        DatastoreHandle h = acc.lookup(store, op);
        try {
            if (!all) {
                acc.checkOwner(owner(h.datastore(), group));
            }
            return h;
        } catch (RuntimeException e) {
            h.close();
            throw e;
        }
    }

    private static String owner(Datastore ds, BackupGroupRef group) {
        try {
            return ds.owner(group);
        } catch (IOException e) {
            throw noGroup(group);
        }
    }

    private static ApiException noGroup(BackupGroupRef group) {
        BackupNamespace ns = group.ns();
        return ApiException.badRequest("backup group '" + (ns.isRoot() ? "" : "ns/" + ns + "/") + group.type().text()
                + "/" + group.id() + "' does not exist");
    }

    private static BackupGroupRef group(ApiParams p) {
        var type = p.backupType();
        String id = p.backupId();
        return new BackupGroupRef(p.namespace("ns"), type, id);
    }

    private static BackupSnapshotRef snapshot(ApiParams p) {
        var type = p.backupType();
        String id = p.backupId();
        long time = p.backupTime();
        return new BackupSnapshotRef(new BackupGroupRef(p.namespace("ns"), type, id), time);
    }

    private static void requireSnapshot(Datastore ds, BackupSnapshotRef ref) {
        if (!Files.isDirectory(ds.snapshotDir(ref), LinkOption.NOFOLLOW_LINKS)) {
            throw ApiException.badRequest("snapshot " + describe(ref) + " does not exist");
        }
    }

    private static String describe(BackupSnapshotRef ref) {
        BackupNamespace ns = ref.group().ns();
        return (ns.isRoot() ? "" : "ns/" + ns + "/") + ref;
    }
}
