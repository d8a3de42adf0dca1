package org.jpbs.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.datastore.config.DatastoreCache;
import org.jpbs.datastore.config.DatastoreConfig;
import org.jpbs.server.ServerConfig;
import org.jpbs.server.ServerServices;
import org.jpbs.server.auth.AuthResult;
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.DefaultRestHandler;
import org.jpbs.server.http.Params;
import org.jpbs.server.http.RestHandler;
import org.jpbs.server.http.RestRequest;
import org.jpbs.server.http.RestResponse;

/**
 * The jpbs REST API ({@code docs/api.md}), dispatching on method and path:
 * <ul>
 * <li>{@code GET /api2/json/ping} (no auth), {@code GET /api2/json/version};</li>
 * <li>{@code POST /api2/json/access/ticket} ({@code username}, {@code password}; form or JSON;
 *     no auth) answers {@code {"CSRFPreventionToken","ticket","username"}}, a failure 401
 *     {@code "permission check failed."}; the password check runs on a small bounded pool
 *     ({@link org.jpbs.server.auth.PasswordCheckQueue}), 503 when it is full;</li>
 * <li>{@code GET /api2/json/admin/datastore}: {@code [{"comment":null,"store"}]}, the stores the
 *     caller may see, by name;</li>
 * <li>under {@code /api2/json/admin/datastore/{store}/}: {@code GET groups}, {@code GET snapshots}
 *     (streamed), {@code DELETE snapshots}, {@code GET namespace}, {@code GET files},
 *     {@code GET status}, {@code GET gc} (status of the last GC), {@code GET download}
 *     ({@link DatastoreApi}); {@code POST gc}, {@code POST prune}, {@code POST prune-datastore},
 *     {@code POST verify}, {@code GET active-operations} ({@link DatastoreJobsApi});
 *     {@code GET|PUT notes}, {@code GET|PUT group-notes}, {@code GET|PUT protected},
 *     {@code POST change-owner}, {@code POST upload-backup-log}, {@code DELETE groups} ({@link SnapshotAdminApi});
 *     {@code POST|DELETE namespace} ({@link NamespaceApi});</li>
 * <li>{@code GET /api2/json/status/datastore-usage};</li>
 * <li>{@code GET access/users}, {@code POST access/users/{userid}/token/{token-name}}, {@code GET access/acl}
 *     ({@link AccessApi}); {@code GET nodes/{node}/certificates/info} ({@link CertificateApi});</li>
 * <li>{@code GET admin/datastore/{store}/rrd}, {@code GET nodes/{node}/rrd} ({@link RrdApi});</li>
 * <li>{@code /api2/json/nodes/{node}/tasks[/{upid}[/status|/log]]} ({@link TasksApi}).</li>
 * </ul>
 * Datastores come from the server's {@link DatastoreCache} ({@code datastore.cfg} plus the
 * command-line ones); every datastore call looks its store up for the operation it does, so the
 * maintenance mode is enforced here.
 * Order of checks as PBS: unknown path or method 404 {@code "Path '<path>' not found."}, then
 * authentication 401, then parameters 400, then permissions 403. 401 answers are delayed until
 * {@link #AUTH_FAILURE_DELAY} after the request started and 403 answers by
 * {@link #PERMISSION_FAILURE_DELAY} ({@code docs/api.md#conventions-as-pbs}; configurable for tests). Thread-safe.
 */
public final class JpbsRestHandler implements RestHandler {
    /** Minimum time before a 401 is answered (PBS: 3 s). */
    public static final Duration AUTH_FAILURE_DELAY = Duration.ofSeconds(3);
    /** Delay of a 403 answer (PBS: 0.5 s). */
    public static final Duration PERMISSION_FAILURE_DELAY = Duration.ofMillis(500);
    private static final String PREFIX = "/api2/json";
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final Set<String> STORE_CALLS = Set.of("GET groups", "DELETE groups", "GET snapshots", "DELETE snapshots",
            "GET namespace", "GET files", "GET status", "GET download", "GET gc", "POST gc", "POST prune",
            "POST prune-datastore", "POST verify", "GET active-operations", "GET notes", "PUT notes",
            "GET group-notes", "PUT group-notes", "GET protected", "PUT protected", "POST change-owner",
            "POST namespace", "DELETE namespace", "POST upload-backup-log", "GET rrd");

    private final FileAuthenticator auth;
    private final ServerServices services;
    private final Duration authDelay;
    private final Duration permissionDelay;

    /**
     * @param auth     users, tokens, tickets and ACLs
     * @param services datastores, tasks and the job hook (the same as the server's)
     */
    public JpbsRestHandler(FileAuthenticator auth, ServerServices services) {
        this(auth, services, AUTH_FAILURE_DELAY, PERMISSION_FAILURE_DELAY);
    }

    private JpbsRestHandler(FileAuthenticator auth, ServerServices services, Duration authDelay,
                            Duration permissionDelay) {
        this.auth = auth;
        this.services = services;
        this.authDelay = authDelay;
        this.permissionDelay = permissionDelay;
    }

    /**
     * A handler for the datastores of {@code config} ({@link ServerServices#open}).
     *
     * @throws IOException if a command-line datastore cannot be opened
     */
    public static JpbsRestHandler create(ServerConfig config, FileAuthenticator auth) throws IOException {
        return new JpbsRestHandler(auth, ServerServices.open(config));
    }

    /** A copy with other failure delays (e.g. zero in tests). */
    public JpbsRestHandler withFailureDelays(Duration authFailure, Duration permissionFailure) {
        return new JpbsRestHandler(auth, services, authFailure, permissionFailure);
    }

    /** A copy with other services (e.g. a {@link DatastoreJobs} that runs GC). */
    public JpbsRestHandler withServices(ServerServices other) {
        return new JpbsRestHandler(auth, other, authDelay, permissionDelay);
    }

    /** The datastores, tasks and job hook this handler serves. */
    public ServerServices services() {
        return services;
    }

    @Override
    public RestResponse handle(RestRequest req) throws Exception {
        long start = System.nanoTime();
        try {
            return dispatch(req);
        } catch (ApiException e) {
            if (e.status() == 401) {
                sleepUntil(start + authDelay.toNanos());
            } else if (e.status() == 403) {
                sleepUntil(System.nanoTime() + permissionDelay.toNanos());
            }
            throw e;
        }
    }

    private static void sleepUntil(long deadlineNanos) throws InterruptedException {
        long left = deadlineNanos - System.nanoTime();
        if (left > 0) {
            Thread.sleep(Duration.ofNanos(left));
        }
    }

    private Access access(RestRequest req) {
        return new Access(auth, authenticate(req), services.datastores());
    }

    private RestResponse dispatch(RestRequest req) throws IOException {
        String path = req.path();
        String m = req.method().equals("HEAD") ? "GET" : req.method();
        if (!path.startsWith(PREFIX + "/")) {
            throw ApiException.pathNotFound(path);
        }
        List<String> seg = List.of(path.substring(PREFIX.length() + 1).split("/"));
        String route = m + " " + String.join("/", seg);
        if (seg.size() == 4 && seg.get(0).equals("admin") && seg.get(1).equals("datastore")) {
            return datastoreCall(req, m + " " + seg.get(3), decode(seg.get(2), "store"));
        }
        if (seg.size() >= 3 && seg.get(0).equals("nodes") && seg.get(2).equals("tasks")) {
            return tasksCall(req, m, seg);
        }
        if (seg.size() == 5 && seg.get(0).equals("access") && seg.get(1).equals("users") && seg.get(3).equals("token")
                && m.equals("POST")) {
            Access acc = access(req);
            return AccessApi.createToken(acc, decode(seg.get(2), "userid"), decode(seg.get(4), "token-name"), req.params());
        }
        if (seg.size() == 3 && seg.get(0).equals("nodes") && seg.get(2).equals("rrd") && m.equals("GET")) {
            Access acc = access(req);
            TasksApi.checkNode(decode(seg.get(1), "node"));
            return RrdApi.node(acc, req.rawQuery(), java.time.Instant.now().getEpochSecond());
        }
        if (seg.size() == 4 && seg.get(0).equals("nodes") && seg.get(2).equals("certificates") && seg.get(3).equals("info")
                && m.equals("GET")) {
            Access acc = access(req);
            TasksApi.checkNode(decode(seg.get(1), "node"));
            return CertificateApi.info(acc, auth.configDir(), req.rawQuery());
        }
        return switch (route) {
            case "GET ping" -> RestResponse.data(F.objectNode().put("pong", true));
            case "GET version" -> {
                authenticate(req);
                yield RestResponse.data(F.objectNode().put("release", DefaultRestHandler.RELEASE)
                        .put("repoid", DefaultRestHandler.REPOID).put("version", DefaultRestHandler.VERSION));
            }
            case "POST access/ticket" -> ticket(req);
            case "GET access/users" -> AccessApi.users(access(req), req.rawQuery());
            case "GET access/acl" -> AccessApi.acl(access(req), req.rawQuery());
            case "GET admin/datastore" -> {
                Access acc = access(req);
                ApiParams.ofQuery(req.rawQuery(), Set.of());
                yield datastoreList(acc);
            }
            case "GET status/datastore-usage" -> DatastoreApi.usage(access(req), req.rawQuery(),
                    java.time.Instant.now().getEpochSecond());
            default -> throw ApiException.pathNotFound(path);
        };
    }

    private RestResponse datastoreCall(RestRequest req, String call, String rawStore) throws IOException {
        if (!STORE_CALLS.contains(call)) {
            throw ApiException.pathNotFound(req.path());
        }
        Access acc = access(req);
        String store = ApiParams.store(rawStore);
        String q = req.rawQuery();
        return switch (call) {
            case "GET groups" -> DatastoreApi.groups(acc, store, q);
            case "GET snapshots" -> DatastoreApi.snapshots(acc, store, q);
            case "DELETE snapshots" -> DatastoreApi.forget(acc, store, q);
            case "DELETE groups" -> SnapshotAdminApi.deleteGroup(acc, store, req.params());
            case "GET namespace" -> DatastoreApi.namespaces(acc, store, q);
            case "GET files" -> DatastoreApi.files(acc, store, q);
            case "GET status" -> DatastoreApi.status(acc, store, q);
            case "GET gc" -> DatastoreApi.gc(acc, store, q);
            case "GET download" -> DatastoreApi.download(acc, store, q);
            case "POST gc" -> DatastoreJobsApi.gc(acc, services, store, req.params());
            case "POST prune" -> DatastoreJobsApi.prune(acc, services, store, req.params(), false);
            case "POST prune-datastore" -> DatastoreJobsApi.prune(acc, services, store, req.params(), true);
            case "POST verify" -> DatastoreJobsApi.verify(acc, services, store, req.params());
            case "GET notes" -> SnapshotAdminApi.getNotes(acc, store, req.params());
            case "PUT notes" -> SnapshotAdminApi.setNotes(acc, store, req.params());
            case "GET group-notes" -> SnapshotAdminApi.getGroupNotes(acc, store, req.params());
            case "PUT group-notes" -> SnapshotAdminApi.setGroupNotes(acc, store, req.params());
            case "GET protected" -> SnapshotAdminApi.getProtection(acc, store, req.params());
            case "PUT protected" -> SnapshotAdminApi.setProtection(acc, store, req.params());
            case "POST change-owner" -> SnapshotAdminApi.changeOwner(acc, store, req.params());
            case "POST namespace" -> NamespaceApi.create(acc, store, req.params());
            case "DELETE namespace" -> NamespaceApi.delete(acc, store, req.params());
            case "POST upload-backup-log" -> SnapshotAdminApi.uploadBackupLog(acc, store, q, req.body());
            case "GET rrd" -> RrdApi.datastore(acc, store, q, java.time.Instant.now().getEpochSecond());
            default -> DatastoreJobsApi.activeOperations(acc, services, store, q);
        };
    }

    private RestResponse tasksCall(RestRequest req, String m, List<String> seg) throws IOException {
        String call = m + " " + (seg.size() == 3 ? "" : seg.size() == 4 ? "{upid}" : seg.size() == 5 ? "{upid}/" + seg.get(4) : "?");
        if (!Set.of("GET ", "GET {upid}", "DELETE {upid}", "GET {upid}/status", "GET {upid}/log").contains(call)) {
            throw ApiException.pathNotFound(req.path());
        }
        Access acc = access(req);
        TasksApi.checkNode(decode(seg.get(1), "node"));
        String q = req.rawQuery();
        if (seg.size() == 3) {
            return TasksApi.list(acc, services.tasks(), q);
        }
        String upid = decode(seg.get(3), "upid");
        return switch (call) {
            case "GET {upid}" -> TasksApi.subdirs(acc, services.tasks(), upid, q);
            case "DELETE {upid}" -> TasksApi.stop(acc, services.tasks(), upid, q);
            case "GET {upid}/status" -> TasksApi.status(acc, services.tasks(), upid, q);
            default -> TasksApi.log(acc, services.tasks(), upid, q);
        };
    }

    private String authenticate(RestRequest req) {
        AuthResult a = auth.authenticate(req.headers(), req.method());
        if (!a.ok()) {
            throw new ApiException(401, a.error());
        }
        return a.authid();
    }

    private RestResponse ticket(RestRequest req) {
        Params p = req.params();
        String username = p.string("username");
        String password = p.string("password");
        Optional<FileAuthenticator.Login> login;
        try {
            login = auth.login(username, password);
        } catch (org.jpbs.server.auth.PasswordCheckQueue.LoginBusyException e) {
            throw new ApiException(503, e.getMessage());
        }
        if (login.isEmpty()) {
            throw new ApiException(401, "permission check failed.");
        }
        ObjectNode o = F.objectNode();
        o.put("CSRFPreventionToken", login.get().csrfToken());
        o.put("ticket", login.get().ticket());
        o.put("username", login.get().username());
        return RestResponse.data(o);
    }

    /** {@code [{"comment","store","maintenance"?}]}: the stores the caller may see, in config order (as PBS). */
    private RestResponse datastoreList(Access acc) throws IOException {
        ArrayNode out = F.arrayNode();
        long visible = Access.AUDIT | Access.BACKUP;
        long below = Access.MODIFY | Access.READ | Access.BACKUP | Access.AUDIT;
        DatastoreCache cache = services.datastores();
        for (DatastoreConfig c : cache.list()) {
            String store = c.name();
            boolean allowed = (acc.privileges(store, BackupNamespace.ROOT) & visible) != 0;
            if (allowed || acc.anyPrivsBelow(store, below)) {
                ObjectNode o = out.addObject();
                if (c.comment().isPresent()) {
                    o.put("comment", c.comment().get());
                } else {
                    o.putNull("comment");
                }
                c.maintenanceMode().ifPresent(mm -> o.put("maintenance", mm.format()));
                o.put("store", store);
            }
        }
        return RestResponse.data(out);
    }

    private static String decode(String segment, String param) {
        try {
            return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ApiException.badParam(param, "value does not match the regex pattern");
        }
    }
}
