package org.jpbs.server.api;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.jpbs.server.http.RestResponse;
import org.jpbs.server.metrics.ServerMetrics;

/**
 * The handler of {@code GET /metrics} on the server port ({@code docs/metrics.md#prometheus}),
 * declared in {@link ApiRoutes} as a route outside {@code /api2/json}: the Prometheus text
 * exposition of {@link ServerMetrics}. Authenticated like the API (an API token in
 * {@code Authorization: PBSAPIToken <tokenid>:<secret>}, which Prometheus sends with
 * {@code authorization: {type: PBSAPIToken, credentials: ...}}, or a ticket cookie); the
 * dispatcher has checked {@code Sys.Audit} on {@code /system/status}, the privilege of PBS's own
 * status and metrics calls, and refused any parameter. Stateless.
 */
final class MetricsApi {
    /** The path of the endpoint. */
    static final String PATH = "/metrics";

    private MetricsApi() {}

    static RestResponse scrape(ServerMetrics metrics) {
        return new RestResponse(200, ServerMetrics.contentType(), metrics.scrape().getBytes(StandardCharsets.UTF_8),
                Map.of());
    }
}
