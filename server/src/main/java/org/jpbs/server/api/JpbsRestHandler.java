package org.jpbs.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.ServerConfig;
import org.jpbs.server.auth.AuthResult;
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.DefaultRestHandler;
import org.jpbs.server.http.Params;
import org.jpbs.server.http.RestHandler;
import org.jpbs.server.http.RestRequest;
import org.jpbs.server.http.RestResponse;

/**
 * The jpbs REST API (spec {@code pbs-protocol.md} §4), dispatching on method and path:
 * <ul>
 * <li>{@code GET /api2/json/ping} (no auth), {@code GET /api2/json/version};</li>
 * <li>{@code POST /api2/json/access/ticket} ({@code username}, {@code password}; form or JSON;
 *     no auth) answers {@code {"CSRFPreventionToken","ticket","username"}}, a failure 401
 *     {@code "permission check failed."};</li>
 * <li>{@code GET /api2/json/admin/datastore}: {@code [{"comment":null,"store"}]}, the stores the
 *     caller may see, by name;</li>
 * <li>under {@code /api2/json/admin/datastore/{store}/}: {@code GET groups}, {@code GET snapshots},
 *     {@code DELETE snapshots}, {@code GET namespace}, {@code GET files}, {@code GET status},
 *     {@code GET gc} (status of the last GC), {@code GET download} ({@link DatastoreApi});</li>
 * <li>{@code GET /api2/json/status/datastore-usage}.</li>
 * </ul>
 * Order of checks as PBS: unknown path or method 404 {@code "Path '<path>' not found."}, then
 * authentication 401, then parameters 400, then permissions 403. 401 answers are delayed until
 * {@link #AUTH_FAILURE_DELAY} after the request started and 403 answers by
 * {@link #PERMISSION_FAILURE_DELAY} (§4.1; configurable for tests). Thread-safe.
 */
public final class JpbsRestHandler implements RestHandler {
    /** Minimum time before a 401 is answered (PBS: 3 s). */
    public static final Duration AUTH_FAILURE_DELAY = Duration.ofSeconds(3);
    /** Delay of a 403 answer (PBS: 0.5 s). */
    public static final Duration PERMISSION_FAILURE_DELAY = Duration.ofMillis(500);
    private static final String PREFIX = "/api2/json";
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final FileAuthenticator auth;
    private final Map<String, Datastore> stores;
    private final Duration authDelay;
    private final Duration permissionDelay;

    /**
     * @param auth   users, tokens, tickets and ACLs
     * @param stores the served datastores by name (the same as the server's)
     */
    public JpbsRestHandler(FileAuthenticator auth, Map<String, Datastore> stores) {
        this(auth, stores, AUTH_FAILURE_DELAY, PERMISSION_FAILURE_DELAY);
    }

    private JpbsRestHandler(FileAuthenticator auth, Map<String, Datastore> stores, Duration authDelay,
                            Duration permissionDelay) {
        this.auth = auth;
        this.stores = Map.copyOf(new TreeMap<>(stores));
        this.authDelay = authDelay;
        this.permissionDelay = permissionDelay;
    }

    /**
     * A handler for the datastores of {@code config} (each opened with {@link Datastore#open}).
     *
     * @throws IOException if a datastore cannot be opened
     */
    public static JpbsRestHandler create(ServerConfig config, FileAuthenticator auth) throws IOException {
        Map<String, Datastore> m = new TreeMap<>();
        for (Map.Entry<String, Path> e : config.datastores().entrySet()) {
            m.put(e.getKey(), Datastore.open(e.getValue()));
        }
        return new JpbsRestHandler(auth, m);
    }

    /** A copy with other failure delays (e.g. zero in tests). */
    public JpbsRestHandler withFailureDelays(Duration authFailure, Duration permissionFailure) {
        return new JpbsRestHandler(auth, stores, authFailure, permissionFailure);
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

    private RestResponse dispatch(RestRequest req) throws IOException {
        String path = req.path();
        String m = req.method().equals("HEAD") ? "GET" : req.method();
        if (!path.startsWith(PREFIX + "/")) {
            throw ApiException.pathNotFound(path);
        }
        List<String> seg = List.of(path.substring(PREFIX.length() + 1).split("/"));
        String route = m + " " + String.join("/", seg);
        if (seg.size() == 4 && seg.get(0).equals("admin") && seg.get(1).equals("datastore")) {
            String call = m + " " + seg.get(3);
            if (!List.of("GET groups", "GET snapshots", "DELETE snapshots", "GET namespace", "GET files",
                    "GET status", "GET download", "GET gc").contains(call)) {
                throw ApiException.pathNotFound(path);
            }
            Access acc = new Access(auth, authenticate(req), stores);
            String store = ApiParams.store(decode(seg.get(2)));
            return switch (call) {
                case "GET groups" -> DatastoreApi.groups(acc, store, req.rawQuery());
                case "GET snapshots" -> DatastoreApi.snapshots(acc, store, req.rawQuery());
                case "DELETE snapshots" -> DatastoreApi.forget(acc, store, req.rawQuery());
                case "GET namespace" -> DatastoreApi.namespaces(acc, store, req.rawQuery());
                case "GET files" -> DatastoreApi.files(acc, store, req.rawQuery());
                case "GET status" -> DatastoreApi.status(acc, store, req.rawQuery());
                case "GET gc" -> DatastoreApi.gc(acc, store, req.rawQuery());
                default -> DatastoreApi.download(acc, store, req.rawQuery());
            };
        }
        return switch (route) {
            case "GET ping" -> RestResponse.data(F.objectNode().put("pong", true));
            case "GET version" -> {
                authenticate(req);
                yield RestResponse.data(F.objectNode().put("release", DefaultRestHandler.RELEASE)
                        .put("repoid", DefaultRestHandler.REPOID).put("version", DefaultRestHandler.VERSION));
            }
            case "POST access/ticket" -> ticket(req);
            case "GET admin/datastore" -> {
                String authid = authenticate(req);
                ApiParams.ofQuery(req.rawQuery(), java.util.Set.of());
                yield datastoreList(new Access(auth, authid, stores));
            }
            case "GET status/datastore-usage" -> DatastoreApi.usage(new Access(auth, authenticate(req), stores),
                    req.rawQuery(), java.time.Instant.now().getEpochSecond());
            default -> throw ApiException.pathNotFound(path);
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
        Optional<FileAuthenticator.Login> login = auth.login(username, password);
        if (login.isEmpty()) {
            throw new ApiException(401, "permission check failed.");
        }
        ObjectNode o = F.objectNode();
        o.put("CSRFPreventionToken", login.get().csrfToken());
        o.put("ticket", login.get().ticket());
        o.put("username", login.get().username());
        return RestResponse.data(o);
    }

    private RestResponse datastoreList(Access acc) {
        ArrayNode out = F.arrayNode();
        long visible = Access.AUDIT | Access.BACKUP;
        long below = Access.MODIFY | Access.READ | Access.BACKUP | Access.AUDIT;
        for (String store : new TreeMap<>(stores).keySet()) {
            boolean allowed = (acc.privileges(store, BackupNamespace.ROOT) & visible) != 0;
            if (allowed || acc.anyPrivsBelow(store, below)) {
                out.add(F.objectNode().putNull("comment").put("store", store));
            }
        }
        return RestResponse.data(out);
    }

    private static String decode(String segment) {
        try {
            return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ApiException.badParam("store", "value does not match the regex pattern");
        }
    }
}
