package org.jpbs.server.api;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.SafeId;
import org.jpbs.datastore.config.DatastoreHandle;
import org.jpbs.datastore.config.Operation;
import org.jpbs.server.routing.ApiParams;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.Params;
import org.jpbs.server.http.RestResponse;

/**
 * {@code POST} and {@code DELETE /api2/json/admin/datastore/{store}/namespace} (PBS
 * {@code src/api2/admin/namespace.rs}; the listing is {@link DatastoreApi#namespaces}). Both need
 * {@code Datastore.Modify} on the parent of the namespace created or removed (PBS
 * {@code check_ns_modification_privs}); the root namespace cannot be created or removed.
 * Stateless.
 */
final class NamespaceApi {
    private NamespaceApi() {}

    /** The check of {@code name} of a new namespace: a safe id of 1..32 characters. */
    static void checkName(ApiParams p) {
        String name = p.required("name");
        if (name.length() > 32) {
            throw ApiException.badParam("name", "value may only be 32 characters long");
        }
        if (name.isEmpty()) {
            throw ApiException.badParam("name", "value must be at least 1 characters long");
        }
        if (!SafeId.isValid(name)) {
            throw ApiException.badParam("name", "value does not match the regex pattern");
        }
    }

    /** The check of the required {@code ns} of a namespace deletion. */
    static void checkRequiredNs(ApiParams p) {
        if (p.text("ns").isEmpty()) {
            throw ApiException.badParam("ns", "parameter is missing and it is not optional.");
        }
        p.namespace("ns");
    }

    /**
     * {@code POST .../namespace} ({@code name}: safe id of 1..32 characters; {@code parent},
     * default the root): creates {@code parent/name} (an existing one is fine); the parent must
     * exist and the new depth be at most 7. Answers the new namespace as a string.
     */
    static RestResponse create(Access acc, String store, ApiParams p) throws IOException {
        String name = p.required("name");
        BackupNamespace parent = p.namespace("parent");
        if (parent.depth() >= BackupNamespace.MAX_DEPTH) {
            throw ApiException.badRequest("namespace to deep, " + (parent.depth() + 1) + " > max "
                    + BackupNamespace.MAX_DEPTH);
        }
        acc.checkFull(store, parent, Access.MODIFY, 0);
        try (DatastoreHandle h = acc.lookup(store, Operation.WRITE)) {
            BackupNamespace ns = h.datastore().createNamespace(parent, name);
            return RestResponse.data(JsonNodeFactory.instance.textNode(ns.toString()));
        } catch (NoSuchFileException e) {
            throw ApiException.badRequest(e.getReason());
        }
    }

    /**
     * {@code DELETE .../namespace} ({@code ns}, required; {@code delete-groups}, default false):
     * removes the namespace and the empty namespaces below it; with {@code delete-groups} also
     * every group in the subtree except protected snapshots. A namespace that cannot be removed
     * completely is an error ({@code "only partially deleted due to existing groups but
     * `delete-groups` not true "}, {@code "group only partially deleted due to protected
     * snapshots"}), what could be removed stays removed (as PBS). Null.
     */
    static RestResponse delete(Access acc, String store, ApiParams p) throws IOException {
        BackupNamespace ns = p.namespace("ns");
        boolean deleteGroups = p.bool("delete-groups", false);
        if (ns.isRoot()) {
            throw ApiException.badRequest("Cannot create/delete root namespace!");
        }
        acc.checkFull(store, ns.parent(), Access.MODIFY, 0);
        try (DatastoreHandle h = acc.lookup(store, Operation.WRITE)) {
            if (!h.datastore().namespaceExists(ns)) {
                throw ApiException.badRequest("namespace '" + ns + "' does not exist");
            }
            boolean all = h.datastore().removeNamespace(ns, deleteGroups); // locked: 400 (ErrorMapper)
            if (!all) {
                throw ApiException.badRequest(deleteGroups ? "group only partially deleted due to protected snapshots"
                        : "only partially deleted due to existing groups but `delete-groups` not true ");
            }
            return RestResponse.data(NullNode.getInstance());
        }
    }
}
