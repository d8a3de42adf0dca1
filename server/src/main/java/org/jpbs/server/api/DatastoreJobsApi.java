package org.jpbs.server.api;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.api.Upid;
import org.jpbs.datastore.config.DatastoreHandle;
import org.jpbs.datastore.config.KeepOptions;
import org.jpbs.datastore.config.Operation;
import org.jpbs.datastore.task.TaskJob;
import org.jpbs.server.ServerServices;
import org.jpbs.server.routing.ApiParams;
import org.jpbs.server.http.RestResponse;

/**
 * The calls that start maintenance jobs on a datastore ({@code docs/api.md#admindatastorestore}):
 * {@code POST .../gc}, {@code POST .../prune}, {@code POST .../prune-datastore},
 * {@code POST .../verify}, and {@code GET .../active-operations}. Order of checks: parameters
 * (400), privileges (403), the datastore lookup for a write — which enforces the maintenance
 * mode (400 {@code "datastore 'x' is in read-only maintenance mode: ..."}) — then the
 * {@link DatastoreJobs} hook builds the job, which runs as a task; the answer is its UPID.
 * Stateless.
 */
final class DatastoreJobsApi {
    /** The {@code keep-*} options of a prune. */
    static final List<String> KEEP = List.copyOf(KeepOptions.KEYS);

    private DatastoreJobsApi() {}

    /** {@code POST .../gc}: Datastore.Modify; task {@code garbage_collection}. */
    static RestResponse gc(Access acc, ServerServices svc, String store, ApiParams p) throws IOException {
        acc.checkFull(store, BackupNamespace.ROOT, Access.MODIFY, 0);
        return start(acc, svc, store, "garbage_collection", h -> svc.jobs().garbageCollection(h));
    }

    /**
     * {@code POST .../prune} (one group) and {@code .../prune-datastore}: Datastore.Modify, or
     * Datastore.Prune limited to the caller's groups (PBS): a single group must be owned by the
     * caller (400 {@code "backup owner check failed (<caller> != <owner>)"}), a whole-store or
     * namespace prune covers only the groups {@link Access#jobScope} lets it touch.
     */
    static RestResponse prune(Access acc, ServerServices svc, String store, ApiParams p, boolean wholeStore)
            throws IOException {
        BackupType type = wholeStore ? null : p.backupType();
        String id = wholeStore ? null : p.backupId();
        BackupNamespace ns = p.namespace("ns");
        boolean full = acc.checkFull(store, ns, Access.MODIFY, Access.PRUNE);
        BackupGroupRef ownerCheck = wholeStore || full ? null : new BackupGroupRef(ns, type, id);
        Map<String, String> flat = flat(p);
        if (!wholeStore && !p.bool("use-task", false)) {
            return pruneNow(acc, svc, store, flat, ownerCheck);
        }
        return start(acc, svc, store, "prune", h -> {
            if (ownerCheck != null) {
                acc.checkGroupOwner(h.datastore(), ownerCheck);
            }
            return svc.jobs().prune(h, flat, acc.jobScope(store, h.datastore(), Access.MODIFY, Access.PRUNE));
        });
    }

    /**
     * {@code POST .../verify}: Datastore.Verify, or Datastore.Backup limited to the caller's
     * groups (PBS): a single snapshot or group must be owned by the caller (400 {@code "backup
     * owner check failed ..."}), a namespace verify covers only the owned groups.
     */
    static RestResponse verify(Access acc, ServerServices svc, String store, ApiParams p) throws IOException {
        Optional<BackupType> type = p.optBackupType();
        Optional<String> id = p.optBackupId();
        boolean time = p.text("backup-time").isPresent(); // an integer in a JSON body, as the PBS client sends it
        if (!(type.isPresent() && id.isPresent()) && (type.isPresent() || id.isPresent() || time)) {
            // PBS: only type+id+time (snapshot), type+id (group) or none of them (namespace)
            throw new org.jpbs.server.http.ApiException(400, "parameters do not specify a backup group or snapshot");
        }
        BackupNamespace ns = p.namespace("ns");
        boolean full = acc.checkFull(store, ns, Access.VERIFY, Access.BACKUP);
        BackupGroupRef ownerCheck = full || type.isEmpty() ? null : new BackupGroupRef(ns, type.get(), id.get());
        Map<String, String> flat = flat(p);
        return start(acc, svc, store, "verify", h -> {
            if (ownerCheck != null) {
                acc.checkGroupOwner(h.datastore(), ownerCheck);
            }
            GroupScope scope = full ? GroupScope.ALL : acc.jobScope(store, h.datastore(), Access.VERIFY, Access.BACKUP);
            return svc.jobs().verify(h, flat, scope);
        });
    }

    /** {@code GET .../active-operations}: {@code {"read": n, "write": n}} of this process; Datastore.Audit. */
    static RestResponse activeOperations(Access acc, ServerServices svc, String store, ApiParams p) {
        acc.checkFull(store, BackupNamespace.ROOT, Access.AUDIT, 0);
        int[] ops = svc.datastores().activeOperations(store);
        return RestResponse.data(JsonNodeFactory.instance.objectNode().put("read", ops[0]).put("write", ops[1]));
    }

    /**
     * Prune of one group without a task: {@code [{"backup-type","backup-id","backup-time","keep",
     * "protected","ns"?}]}, oldest first ({@code docs/api.md#admindatastorestore}).
     */
    private static RestResponse pruneNow(Access acc, ServerServices svc, String store, Map<String, String> flat,
                                         BackupGroupRef ownerCheck) throws IOException {
        List<org.jpbs.datastore.prune.PruneDecision> decisions;
        try (DatastoreHandle h = acc.lookup(store, Operation.WRITE)) {
            if (ownerCheck != null) {
                acc.checkGroupOwner(h.datastore(), ownerCheck);
            }
            decisions = svc.jobs().pruneGroup(h, flat);
        }
        com.fasterxml.jackson.databind.node.ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (org.jpbs.datastore.prune.PruneDecision d : decisions) {
            com.fasterxml.jackson.databind.node.ObjectNode o = out.addObject();
            o.put("backup-type", d.snapshot().group().type().text());
            o.put("backup-id", d.snapshot().group().id());
            o.put("backup-time", d.snapshot().time());
            o.put("keep", d.mark().keeps());
            o.put("protected", d.mark() == org.jpbs.datastore.prune.PruneMark.PROTECTED);
            if (!d.snapshot().group().ns().isRoot()) {
                o.put("ns", d.snapshot().group().ns().toString());
            }
        }
        return RestResponse.data(out);
    }

    private static Map<String, String> flat(ApiParams p) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String k : p.names()) {
            if (!k.equals("_dc")) {
                p.text(k).ifPresent(v -> m.put(k, v));
            }
        }
        return m;
    }

    @FunctionalInterface
    private interface JobFactory {
        TaskJob create(DatastoreHandle h);
    }

    private static RestResponse start(Access acc, ServerServices svc, String store, String type, JobFactory factory)
            throws IOException {
        DatastoreHandle h = acc.lookup(store, Operation.WRITE);
        Upid upid;
        try {
            TaskJob job = factory.create(h);
            upid = svc.tasks().spawn(type, store, acc.authid(), log -> {
                try (h) {
                    job.run(log);
                }
            });
        } catch (IOException | RuntimeException e) {
            h.close();
            throw e;
        }
        return RestResponse.data(JsonNodeFactory.instance.textNode(upid.toString()));
    }
}
