package org.jpbs.server.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jpbs.server.api.ApiRoutes;
import org.jpbs.server.http.RestResponse;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/api.md}'s endpoint tables are the routing table's ({@link ApiDocs}); with
 * {@code -Djpbs.update-docs=true} this test rewrites the file instead of failing.
 */
class ApiDocsTest {
    private static final Path DOC = Path.of("..", "docs", "api.md");

    @Test
    void apiDocsAreGeneratedFromTheRoutingTable() throws Exception {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        String fresh = ApiDocs.update(doc, ApiRoutes.TABLE);
        if (Boolean.getBoolean("jpbs.update-docs")) {
            Files.writeString(DOC, fresh, StandardCharsets.UTF_8);
            return;
        }
        assertEquals(fresh, doc, "docs/api.md differs from the routing table: regenerate it with "
                + "mvn -pl server -am test -Dtest=ApiDocsTest -Dsurefire.failIfNoSpecifiedTests=false -Djpbs.update-docs=true");
    }

    @Test
    void everyEndpointIsDocumentedOnceInASection() throws Exception {
        String doc = ApiDocs.update(Files.readString(DOC, StandardCharsets.UTF_8), ApiRoutes.TABLE);
        Set<String> seen = new HashSet<>();
        for (var e : ApiRoutes.TABLE.endpoints()) {
            assertTrue(seen.add(e.method() + " " + e.path()));
            String prefix = ApiRoutes.TABLE.sectionPrefix(e.section());
            String shown = "`" + e.method() + " " + e.path().substring(prefix.length()) + "`";
            assertTrue(doc.contains(shown), "not in docs/api.md: " + shown);
        }
        assertTrue(seen.size() >= 30, "endpoints: " + seen.size());
    }

    @Test
    void declaringAnEndpointTwiceIsRefused() {
        RouteTable<Object> t = new RouteTable<>();
        t.get("a/b").handle(c -> RestResponse.data(null));
        assertThrows(IllegalStateException.class, () -> t.get("a/b").handle(c -> RestResponse.data(null)));
        assertThrows(IllegalStateException.class, () -> t.get("a/{undeclared}").handle(c -> RestResponse.data(null)));
    }

    @Test
    void pathVariablesMatchOneSegmentEach() {
        RouteTable<Object> t = new RouteTable<>();
        t.pathVar("x", "anything", s -> s);
        t.get("a/{x}/c").handle(c -> RestResponse.data(null));
        var m = t.match("HEAD", List.of("a", "b%20", "c"), (n, v) -> v.replace("%20", " ")).orElseThrow();
        assertEquals("b ", m.pathVars().get("x"));
        assertTrue(t.match("GET", List.of("a", "b", "c", "d"), (n, v) -> v).isEmpty());
        assertTrue(t.match("POST", List.of("a", "b", "c"), (n, v) -> v).isEmpty());
    }

    @Test
    void absoluteRoutesMatchOnlyPathsOutsideTheApi() {
        var metrics = ApiRoutes.TABLE.match("HEAD", List.of("", "metrics"), (n, v) -> v).orElseThrow().endpoint();
        assertEquals("/metrics", metrics.path());
        assertTrue(!metrics.api() && metrics.permission().kind() == Permission.Kind.PATH);
        assertEquals("/system/status", metrics.permission().aclPath());
        assertTrue(ApiRoutes.TABLE.match("GET", List.of("metrics"), (n, v) -> v).isEmpty());
        assertTrue(ApiRoutes.TABLE.match("POST", List.of("", "metrics"), (n, v) -> v).isEmpty());
        assertTrue(ApiRoutes.TABLE.match("GET", List.of("", "ping"), (n, v) -> v).isEmpty());
        var put = ApiRoutes.TABLE.match("PUT", List.of("config", "notifications", "endpoints", "smtp", "m%31"),
                (n, v) -> v.replace("%31", "1")).orElseThrow();
        assertEquals("m1", put.pathVars().get("name"));
        assertEquals("/system/notifications", put.endpoint().permission().aclPath());
        assertTrue(put.endpoint().paramNames().containsAll(Set.of("server", "password", "delete", "digest")));
        assertTrue(ApiRoutes.TABLE.match("GET", List.of("config", "notifications", "endpoints", "nope"),
                (n, v) -> v).isEmpty());
    }

    @Test
    void unclosedGeneratedBlockIsAnError() {
        assertThrows(IllegalArgumentException.class,
                () -> ApiDocs.update("<!-- BEGIN GENERATED general -->\n", ApiRoutes.TABLE));
        assertThrows(IllegalArgumentException.class,
                () -> ApiDocs.update("<!-- BEGIN GENERATED nope -->\n<!-- END GENERATED nope -->", ApiRoutes.TABLE));
    }
}
