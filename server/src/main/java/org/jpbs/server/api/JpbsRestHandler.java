package org.jpbs.server.api;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.server.ServerConfig;
import org.jpbs.server.ServerServices;
import org.jpbs.server.auth.AclPaths;
import org.jpbs.server.auth.AuthResult;
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.server.auth.Privilege;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.RestHandler;
import org.jpbs.server.http.RestRequest;
import org.jpbs.server.http.RestResponse;
import org.jpbs.server.routing.ApiParams;
import org.jpbs.server.routing.Endpoint;
import org.jpbs.server.routing.Param;
import org.jpbs.server.routing.Permission;
import org.jpbs.server.routing.RouteTable;

/**
 * The jpbs REST API ({@code docs/api.md}): dispatches every request under {@code /api2/json/},
 * and {@code GET /metrics} outside it, through the routing table {@link ApiRoutes}, where each
 * endpoint is declared once with its parameters and permission rule.
 * Datastores come from the server's {@link DatastoreCache} ({@code datastore.cfg} plus the
 * command-line ones); every datastore call looks its store up for the operation it does, so the
 * maintenance mode is enforced here.
 * Order of checks as PBS: unknown path or method 404 {@code "Path '<path>' not found."}, then
 * authentication 401, then the path variables 400, then an endpoint's store or ACL-path privileges 403
 * ({@link Permission#onStore}, {@link Permission#onPath}), then the parameters 400 (unknown ones refused: {@code
 * "schema does not allow additional properties."}), then the handler's own permission checks 403. 401 answers are delayed until
 * {@link #AUTH_FAILURE_DELAY} after the request started and 403 answers by
 * {@link #PERMISSION_FAILURE_DELAY} ({@code docs/api.md#conventions-as-pbs}; configurable for tests). Thread-safe.
 */
public final class JpbsRestHandler implements RestHandler {
    /** Minimum time before a 401 is answered (PBS: 3 s). */
    public static final Duration AUTH_FAILURE_DELAY = Duration.ofSeconds(3);
    /** Delay of a 403 answer (PBS: 0.5 s). */
    public static final Duration PERMISSION_FAILURE_DELAY = Duration.ofMillis(500);
    private static final String PREFIX = "/api2/json";


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

    private RestResponse dispatch(RestRequest req) throws Exception {
        String path = req.path();
        boolean api = path.startsWith(PREFIX + "/");
        List<String> seg = List.of((api ? path.substring(PREFIX.length() + 1) : path).split("/"));
        RouteTable.Match<ApiCall> match = ApiRoutes.TABLE.match(req.method(), seg, JpbsRestHandler::decode)
                .orElseThrow(() -> ApiException.pathNotFound(path));
        Endpoint<ApiCall> e = match.endpoint();
        Access acc = e.permission().kind() == Permission.Kind.WORLD ? null
                : new Access(auth, authenticate(req), services.datastores());
        Map<String, String> vars = new LinkedHashMap<>();
        match.pathVars().forEach((k, v) -> vars.put(k, ApiRoutes.TABLE.pathVar(k).check().apply(v)));
        if (e.permission().kind() == Permission.Kind.STORE) {
            String store = vars.get("store");
            long have = acc.privileges(store, BackupNamespace.ROOT); // an unknown store: 400 at its lookup
            if (!e.permission().allows(have)) {
                throw new ApiException(403, "permission check failed");
            }
        }
        if (e.permission().kind() == Permission.Kind.PATH) {
            Permission p = e.permission();
            if (!p.allows(auth.privileges(acc.authid(), AclPaths.components(p.aclPath())))) {
                throw new ApiException(403, "permission check failed - missing " + Privilege.joined(p.privileges())
                        + " on " + p.aclPath());
            }
        }
        ApiParams params = e.body() == Endpoint.Body.RAW ? ApiParams.ofQuery(req.rawQuery(), e.paramNames())
                : ApiParams.of(req.params(), e.paramNames());
        for (Param p : e.params()) {
            p.check().check(params);
        }
        return e.handler().handle(new ApiCall(req, auth, acc, services, Map.copyOf(vars), params));
    }

    private String authenticate(RestRequest req) {
        AuthResult a = auth.authenticate(req.headers(), req.method());
        if (!a.ok()) {
            throw new ApiException(401, a.error());
        }
        return a.authid();
    }

    private static String decode(String param, String segment) {
        try {
            return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ApiException.badParam(param, "value does not match the regex pattern");
        }
    }
}
