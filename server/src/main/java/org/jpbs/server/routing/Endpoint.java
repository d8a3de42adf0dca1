package org.jpbs.server.routing;

import java.util.List;
import java.util.Objects;
import org.jpbs.server.http.RestResponse;

/**
 * One REST endpoint of a {@link RouteTable}: method, path template below {@code /api2/json/}
 * (segments in braces are path variables, e.g. {@code admin/datastore/{store}/groups}), or an
 * absolute path outside the API when it starts with {@code /} (e.g. {@code /metrics}), its
 * parameters, who may call it, where its parameters come from, the answer (for the
 * documentation) and the handler. Immutable.
 *
 * @param method     {@code GET}, {@code POST}, {@code PUT} or {@code DELETE} (a HEAD is served as GET)
 * @param path       the path template (below {@code /api2/json/}, or absolute: {@link #api})
 * @param section    the documentation section it is listed in
 * @param params     the accepted parameters, checked in this order
 * @param permission who may call it
 * @param body       where the parameters come from
 * @param answer     the answer in words (documentation)
 * @param handler    the work
 * @param <C>        the call context the handler receives
 */
public record Endpoint<C>(String method, String path, String section, List<Param> params, Permission permission,
                          Body body, String answer, Handler<C> handler) {

    /** Where the parameters of a call come from. */
    public enum Body {
        /** The query string plus a form body, or a JSON body (as PBS, for every method). */
        PARAMS,
        /** The query string only; the body is raw data the handler reads (an upload). */
        RAW
    }

    /** The work of an endpoint. */
    @FunctionalInterface
    public interface Handler<C> {
        /**
         * @param call the request with its checked parameters
         * @return the answer
         * @throws Exception mapped to a status and text by {@link org.jpbs.server.http.ErrorMapper}
         */
        RestResponse handle(C call) throws Exception;
    }

    public Endpoint {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        params = List.copyOf(params);
        Objects.requireNonNull(permission, "permission");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(answer, "answer");
        Objects.requireNonNull(handler, "handler");
    }

    /** False for a path outside {@code /api2/json} (a template starting with {@code /}). */
    public boolean api() {
        return !path.startsWith("/");
    }

    /** The path template split at {@code '/'} (an absolute one starts with an empty segment). */
    List<String> segments() {
        return List.of(path.split("/"));
    }

    /** The names of the declared parameters. */
    public java.util.Set<String> paramNames() {
        java.util.Set<String> s = new java.util.LinkedHashSet<>();
        params.forEach(p -> s.add(p.name()));
        return s;
    }
}
