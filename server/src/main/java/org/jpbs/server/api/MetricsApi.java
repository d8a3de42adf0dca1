package org.jpbs.server.api;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.server.auth.Privilege;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.RestResponse;
import org.jpbs.server.metrics.ServerMetrics;

/**
 * {@code GET /metrics} on the server port ({@code docs/metrics.md#prometheus}): the Prometheus
 * text exposition of {@link ServerMetrics}. Authenticated like the API (an API token in
 * {@code Authorization: PBSAPIToken <tokenid>:<secret>}, which Prometheus sends with
 * {@code authorization: {type: PBSAPIToken, credentials: ...}}, or a ticket cookie) and needs
 * {@code Sys.Audit} on {@code /system/status}, the privilege of PBS's own status and metrics
 * calls. No query parameters.
 */
final class MetricsApi {
    /** The path of the endpoint. */
    static final String PATH = "/metrics";
    private static final List<String> ACL_PATH = List.of("system", "status");

    private MetricsApi() {}

    static RestResponse scrape(FileAuthenticator auth, String authid, String rawQuery, ServerMetrics metrics) {
        if ((auth.privileges(authid, ACL_PATH) & Privilege.SYS_AUDIT.bit()) == 0) {
            throw new ApiException(403, "permission check failed - missing Sys.Audit on /system/status");
        }
        org.jpbs.server.routing.ApiParams.ofQuery(rawQuery, java.util.Set.of());
        return new RestResponse(200, ServerMetrics.contentType(), metrics.scrape().getBytes(StandardCharsets.UTF_8),
                Map.of());
    }
}
