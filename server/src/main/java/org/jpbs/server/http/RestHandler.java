package org.jpbs.server.http;

/**
 * Serves the plain HTTP/1.1 REST API ({@code /api2/json/...}, {@code docs/api.md})
 * for every request that is not a backup/reader upgrade. Called on a worker thread, one
 * request of a connection at a time. The full API (authentication, ACLs, datastore admin)
 * plugs in here; {@link DefaultRestHandler} is the minimal built-in one.
 */
@FunctionalInterface
public interface RestHandler {
    /**
     * @return the response
     * @throws Exception mapped to a status and plain-text body by {@link ErrorMapper}
     *                   (throw {@link ApiException} for a specific status)
     */
    RestResponse handle(RestRequest request) throws Exception;
}
