package org.jpbs.server.http;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jpbs.server.auth.AuthResult;
import org.jpbs.server.auth.Authenticator;

/**
 * The minimal REST API until the full one exists: {@code GET /api2/json/version} (authenticated,
 * shaped like the real PBS 3.1 answer in {@code vectors/real-pbs/api/version.body}) and
 * {@code 404 "Path '<path>' not found."} for everything else (checked before authentication,
 * as PBS does).
 */
public final class DefaultRestHandler implements RestHandler {
    /** The version we report: jpbs speaks the protocols of PBS 3.1. */
    public static final String VERSION = "3.1";
    /** The release we report. */
    public static final String RELEASE = "2";
    /** The repoid we report. */
    public static final String REPOID = "jpbs";

    private final Authenticator auth;

    /** @param auth checks the credentials of authenticated calls */
    public DefaultRestHandler(Authenticator auth) {
        this.auth = auth;
    }

    @Override
    public RestResponse handle(RestRequest req) {
        if (req.method().equals("GET") && req.path().equals("/api2/json/version")) {
            AuthResult a = auth.authenticate(req.headers());
            if (!a.ok()) {
                throw new ApiException(401, a.error());
            }
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            o.put("release", RELEASE);
            o.put("repoid", REPOID);
            o.put("version", VERSION);
            return RestResponse.data(o);
        }
        throw ApiException.pathNotFound(req.path());
    }
}
