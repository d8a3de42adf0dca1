package org.jpbs.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jpbs.datastore.jobs.JobConfig;
import org.jpbs.datastore.jobs.JobConfigFile;
import org.jpbs.datastore.jobs.JobConfigStore;
import org.jpbs.datastore.jobs.JobKind;
import org.jpbs.datastore.jobs.JobStateStore;
import org.jpbs.datastore.jobs.JobValueException;
import org.jpbs.server.ServerServices;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.routing.ApiParams;
import org.jpbs.server.http.RestResponse;

/**
 * PBS's {@code config/prune}, {@code config/verify}, {@code config/sync} and {@code config/remote}
 * ({@code docs/jobs.md#rest-api}): list (only what the caller may see, with the file's
 * {@code digest}), create, read, update (with {@code delete} and an optional {@code digest}
 * that must match: 400 "detected modified configuration - file changed by other user? Try
 * again."), remove. Order of checks as PBS: parameters (400), privileges (403), existence.
 * Remote passwords are stored base64-encoded and never answered; an array property
 * ({@code group-filter}) is given as a repeated parameter and answered as a JSON array. Stateless.
 */
final class JobConfigApi {
    static final Map<String, JobKind> KINDS = Map.of("prune", JobKind.PRUNE, "verify", JobKind.VERIFY,
            "sync", JobKind.SYNC, "remote", JobKind.REMOTE);
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private JobConfigApi() {}

    /** {@code <method> config/<kind>[/<id>]}. */
    static RestResponse call(Access acc, ServerServices svc, String method, JobKind kind, String id, ApiParams params)
            throws IOException {
        JobConfigStore store = JobConfigStore.open(svc.scheduler().configDir(), kind);
        if (id == null) {
            return switch (method) {
                case "GET" -> list(acc, store, params);
                case "POST" -> create(acc, svc, store, params);
                default -> throw new ApiException(405, "Method not allowed");
            };
        }
        return switch (method) {
            case "GET" -> read(acc, store, id, params);
            case "PUT" -> update(acc, svc, store, id, params);
            case "DELETE" -> delete(acc, svc, store, id, params);
            default -> throw new ApiException(405, "Method not allowed");
        };
    }

    static String idParam(JobKind kind) {
        return kind.idProperty();
    }

    /** A section as PBS answers it: the id (remotes: name) and the properties, never the password. */
    static ObjectNode toJson(JobConfig c) {
        ObjectNode o = F.objectNode();
        o.put(idParam(c.kind()), c.id());
        c.props().forEach((k, v) -> {
            if (c.kind().listKeys().contains(k)) {
                c.values(k).forEach(o.putArray(k)::add); // an array property, as PBS answers it
            } else if (!k.equals("password")) {
                o.put(k, v);
            }
        });
        return o;
    }

    private static RestResponse list(Access acc, JobConfigStore store, ApiParams params) throws IOException {
        JobConfigFile f = store.read();
        ArrayNode a = F.arrayNode();
        f.all().stream().filter(c -> JobPrivileges.canSee(acc, c)).forEach(c -> a.add(toJson(c)));
        return withDigest(a, f);
    }

    static RestResponse withDigest(com.fasterxml.jackson.databind.JsonNode data, JobConfigFile f) {
        ObjectNode whole = F.objectNode();
        whole.set("data", data);
        whole.put("digest", f.digest());
        return RestResponse.json(whole);
    }

    private static Map<String, String> values(JobKind kind, ApiParams p, Set<String> skip) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String k : p.names()) {
            if (skip.contains(k) || k.equals("_dc")) {
                continue;
            }
            // an array property (group-filter) comes repeated; its items were checked one by one (JobRoutes)
            String v = kind.listKeys().contains(k) ? String.join("\n", p.all(k)) : p.text(k).orElseThrow();
            try {
                kind.checkValue(k, v);
            } catch (JobValueException e) {
                throw ApiException.badParam(e.key(), e.reason());
            } catch (IllegalArgumentException e) {
                throw ApiException.badParam(k, e.getMessage());
            }
            m.put(k, k.equals("password") ? Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8)) : v);
        }
        return m;
    }

    private static RestResponse create(Access acc, ServerServices svc, JobConfigStore store, ApiParams p) throws IOException {
        JobKind kind = store.kind();
        String idName = idParam(kind);
        String id = p.required(idName);
        try {
            kind.checkId(id);
        } catch (IllegalArgumentException e) {
            throw ApiException.badParam(idName, e.getMessage());
        }
        Map<String, String> props = values(kind, p, Set.of(idName));
        for (String k : kind.requiredKeys()) {
            if (!props.containsKey(k)) {
                throw ApiException.badParam(k, "parameter is missing and it is not optional.");
            }
        }
        JobConfig c = new JobConfig(kind, id, props);
        if (kind == JobKind.REMOTE) {
            JobPrivileges.checkCreateRemote(acc);
        } else {
            JobPrivileges.checkModify(acc, c);
        }
        store.update(f -> {
            if (f.get(id).isPresent()) {
                throw ApiException.badParam(idName, (kind == JobKind.REMOTE ? "remote" : "job") + " '" + id + "' already exists.");
            }
            return f.with(c);
        });
        if (kind.stateType() != null) {
            svc.scheduler().scheduleChanged(kind.stateType(), id); // PBS create_state_file: counts from now
        }
        return RestResponse.data(NullNode.getInstance());
    }

    private static JobConfig lookup(JobConfigFile f, String id) {
        return f.get(id).orElseThrow(() -> ApiException.badRequest("no such " + f.kind().sectionType() + " '" + id + "'"));
    }

    private static RestResponse read(Access acc, JobConfigStore store, String id, ApiParams params) throws IOException {
        JobConfigFile f = store.read();
        JobConfig c = lookup(f, id);
        JobPrivileges.checkRead(acc, c);
        return withDigest(toJson(c), f);
    }

    private static void checkDigest(ApiParams p, JobConfigFile f) {
        p.opt("digest").ifPresent(d -> {
            if (!d.equalsIgnoreCase(f.digest())) {
                throw ApiException.badRequest("detected modified configuration - file changed by other user? Try again.");
            }
        });
    }

    private static RestResponse update(Access acc, ServerServices svc, JobConfigStore store, String id, ApiParams p)
            throws IOException {
        JobKind kind = store.kind();
        Map<String, String> changes = new LinkedHashMap<>(values(kind, p, Set.of("delete", "digest")));
        for (String raw : p.all("delete")) {
            for (String k : raw.split("[,;\\s]+")) {
                if (k.isEmpty()) {
                    continue;
                }
                if (!kind.keys().contains(k) || kind.requiredKeys().contains(k)) {
                    throw ApiException.badParam("delete", "value '" + k + "' is not a property that can be deleted.");
                }
                changes.put(k, null);
            }
        }
        boolean[] scheduleChanged = new boolean[1];
        store.update(f -> {
            checkDigest(p, f);
            JobConfig before = lookup(f, id);
            JobPrivileges.checkModify(acc, before);
            JobConfigFile after = f.withProperties(id, changes);
            JobPrivileges.checkModify(acc, after.get(id).orElseThrow()); // a new store, namespace or remote
            scheduleChanged[0] = !java.util.Objects.equals(before.props().get("schedule"),
                    after.get(id).orElseThrow().props().get("schedule"));
            return after;
        });
        if (scheduleChanged[0] && kind.stateType() != null) {
            svc.scheduler().scheduleChanged(kind.stateType(), id);
        }
        return RestResponse.data(NullNode.getInstance());
    }

    private static RestResponse delete(Access acc, ServerServices svc, JobConfigStore store, String id, ApiParams p)
            throws IOException {
        JobKind kind = store.kind();
        if (kind == JobKind.REMOTE) {
            // privileges first (as PBS's router does): the refusal below names a sync job and its datastore
            if (!JobPrivileges.canModifyRemote(acc, id)) {
                throw JobPrivileges.forbidden();
            }
            for (JobConfig s : JobConfigStore.open(svc.scheduler().configDir(), JobKind.SYNC).read().all()) {
                if (id.equals(s.props().get("remote"))) {
                    throw ApiException.badRequest("remote '" + id + "' is used by sync job '" + s.id() + "' (datastore '"
                            + s.store() + "')");
                }
            }
        }
        store.update(f -> {
            JobConfig c = lookup(f, id);
            JobPrivileges.checkModify(acc, c);
            checkDigest(p, f);
            return f.without(id);
        });
        if (kind.stateType() != null) {
            JobStateStore.open(svc.scheduler().configDir()).remove(kind.stateType(), id);
        }
        return RestResponse.data(NullNode.getInstance());
    }
}
