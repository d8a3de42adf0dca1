package org.jpbs.server.routing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BinaryOperator;
import java.util.function.UnaryOperator;

/**
 * The REST API's routing table: every endpoint declared once ({@link Endpoint}: method, path
 * template, parameters with their types and limits, permission, answer, handler), from which
 * the dispatcher matches requests, checks parameters, and {@link ApiDocs} writes the endpoint
 * tables of {@code docs/api.md}. Path variables ({@code {store}}) are declared once with their
 * check. Built once, then read-only (thread-safe after construction).
 *
 * <p>Declaring: {@code table.section("datastore", "admin/datastore/{store}/")} starts a
 * documentation section; {@code table.get("admin/datastore/{store}/groups").params(...)
 * .permission(...).answer("...").handle(call -> ...)} adds an endpoint to it. Declaring the same
 * method and path twice is a programming error ({@link IllegalStateException}).
 *
 * @param <C> the call context handlers receive
 */
public final class RouteTable<C> {
    private final List<Endpoint<C>> endpoints = new ArrayList<>();
    private final Map<String, PathVar> pathVars = new LinkedHashMap<>();
    private final Map<String, String> sections = new LinkedHashMap<>();
    private String section = "general";

    /**
     * A path variable: its name, its type for the documentation and its check.
     *
     * @param name  the name inside the braces
     * @param type  type and limits (documentation)
     * @param check validates the decoded value and returns it (400 {@link org.jpbs.server.http.ApiException} otherwise)
     */
    public record PathVar(String name, String type, UnaryOperator<String> check) {}

    /** A request matched to an endpoint, with its path variables (decoded, not yet checked). */
    public record Match<C>(Endpoint<C> endpoint, Map<String, String> pathVars) {}

    /** Declares the path variable {@code {name}}. */
    public RouteTable<C> pathVar(String name, String type, UnaryOperator<String> check) {
        pathVars.put(name, new PathVar(name, type, check));
        return this;
    }

    /** The declared path variables, in declaration order. */
    public List<PathVar> pathVars() {
        return List.copyOf(pathVars.values());
    }

    /** The check of path variable {@code name}. */
    public PathVar pathVar(String name) {
        PathVar v = pathVars.get(name);
        if (v == null) {
            throw new IllegalStateException("undeclared path variable {" + name + "}");
        }
        return v;
    }

    /**
     * Starts the documentation section {@code id}; endpoints declared next belong to it.
     *
     * @param prefix the path prefix the documentation leaves out in this section's table
     */
    public RouteTable<C> section(String id, String prefix) {
        sections.put(id, prefix);
        section = id;
        return this;
    }

    /** The path prefix of a section (empty if none). */
    public String sectionPrefix(String id) {
        return sections.getOrDefault(id, "");
    }

    /** The section ids, in declaration order. */
    public List<String> sections() {
        return List.copyOf(sections.keySet());
    }

    /** Starts the declaration of {@code GET path}. */
    public Builder get(String path) {
        return new Builder("GET", path);
    }

    /** Starts the declaration of {@code POST path}. */
    public Builder post(String path) {
        return new Builder("POST", path);
    }

    /** Starts the declaration of {@code PUT path}. */
    public Builder put(String path) {
        return new Builder("PUT", path);
    }

    /** Starts the declaration of {@code DELETE path}. */
    public Builder delete(String path) {
        return new Builder("DELETE", path);
    }

    /** Adds a complete endpoint. */
    public RouteTable<C> add(Endpoint<C> e) {
        for (Endpoint<C> o : endpoints) {
            if (o.method().equals(e.method()) && o.path().equals(e.path())) {
                throw new IllegalStateException("endpoint declared twice: " + e.method() + " " + e.path());
            }
        }
        for (String s : e.segments()) {
            if (s.startsWith("{")) {
                pathVar(s.substring(1, s.length() - 1));
            }
        }
        endpoints.add(e);
        return this;
    }

    /** Every endpoint, in declaration order. */
    public List<Endpoint<C>> endpoints() {
        return List.copyOf(endpoints);
    }

    /**
     * The endpoint for {@code method} (HEAD as GET) and the path segments below
     * {@code /api2/json/} (still URL-encoded; path variables are decoded with {@code decode(name, raw)}),
     * or, for a path outside the API, the segments of the whole path (the first one empty):
     * those match only {@linkplain Endpoint#api absolute} endpoints.
     */
    public Optional<Match<C>> match(String method, List<String> segments, BinaryOperator<String> decode) {
        String m = method.equals("HEAD") ? "GET" : method;
        for (Endpoint<C> e : endpoints) {
            if (!e.method().equals(m) || e.api() == (!segments.isEmpty() && segments.getFirst().isEmpty())) {
                continue;
            }
            List<String> t = e.segments();
            if (t.size() != segments.size()) {
                continue;
            }
            Map<String, String> vars = new LinkedHashMap<>();
            boolean ok = true;
            for (int i = 0; i < t.size() && ok; i++) {
                String ts = t.get(i);
                if (ts.startsWith("{")) {
                    vars.put(ts.substring(1, ts.length() - 1), segments.get(i));
                } else {
                    ok = ts.equals(segments.get(i));
                }
            }
            if (ok) {
                Map<String, String> decoded = new LinkedHashMap<>();
                vars.forEach((k, v) -> decoded.put(k, decode.apply(k, v)));
                return Optional.of(new Match<>(e, decoded));
            }
        }
        return Optional.empty();
    }

    /** Declaration of one endpoint; {@link #handle} adds it to the table. */
    public final class Builder {
        private final String method;
        private final String path;
        private final List<Param> params = new ArrayList<>();
        private Permission permission = Permission.checkedByHandler("any authenticated caller");
        private Endpoint.Body body = Endpoint.Body.PARAMS;
        private String answer = "";

        private Builder(String method, String path) {
            this.method = method;
            this.path = path;
        }

        /** Adds parameters (in checking order). */
        public Builder params(Param... ps) {
            params.addAll(List.of(ps));
            return this;
        }

        /** Adds parameters (in checking order). */
        public Builder params(List<Param> ps) {
            params.addAll(ps);
            return this;
        }

        /** Who may call it (default: any authenticated caller, checks in the handler). */
        public Builder permission(Permission p) {
            permission = p;
            return this;
        }

        /** The body is raw data; parameters come from the query only. */
        public Builder rawBody() {
            body = Endpoint.Body.RAW;
            return this;
        }

        /** The answer in words (documentation). */
        public Builder answer(String text) {
            answer = text;
            return this;
        }

        /** Completes the declaration with its handler and adds it to the table. */
        public RouteTable<C> handle(Endpoint.Handler<C> handler) {
            return add(new Endpoint<>(method, path, section, params, permission, body, answer, handler));
        }
    }
}
