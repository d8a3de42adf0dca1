package org.jpbs.server.api;

import java.util.Map;
import org.jpbs.server.ServerServices;
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.server.http.RestRequest;
import org.jpbs.server.routing.ApiParams;

/**
 * One REST call as a handler of the {@link ApiRoutes routing table} sees it, after the
 * dispatcher matched its endpoint, authenticated it and checked its path variables, store
 * privileges and parameters.
 *
 * @param request  the request (for a raw body)
 * @param auth     users, tokens, tickets and ACLs
 * @param access   the caller's permission checks; null for an endpoint without authentication
 * @param services datastores, tasks and the job hook
 * @param path     the checked path variables ({@code store}, {@code node}, {@code upid})
 * @param params   the checked parameters
 */
public record ApiCall(RestRequest request, FileAuthenticator auth, Access access, ServerServices services,
               Map<String, String> path, ApiParams params) {

    /** The {@code {store}} path variable. */
    String store() {
        return path.get("store");
    }
}
