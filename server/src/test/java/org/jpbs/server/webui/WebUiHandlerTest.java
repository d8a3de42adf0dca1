package org.jpbs.server.webui;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.RestRequest;
import org.jpbs.server.http.RestResponse;
import org.junit.jupiter.api.Test;

/** The web interface's static side: page, assets, caching headers, and the API left alone. */
class WebUiHandlerTest {
    private final WebAssets assets = WebAssets.load();
    private final WebUiHandler ui = new WebUiHandler(
            r -> new RestResponse(200, "application/json", ("api " + r.path()).getBytes(StandardCharsets.UTF_8), java.util.Map.of()),
            assets);

    private RestResponse get(String path, String ifNoneMatch) throws Exception {
        HttpHeaders h = new DefaultHttpHeaders();
        if (ifNoneMatch != null) {
            h.set("if-none-match", ifNoneMatch);
        }
        return ui.handle(new RestRequest("GET", path, "", h, new byte[0], null));
    }

    @Test
    void theIndexIsNeverCachedAndNamesTheAssetsOfThisBuild() throws Exception {
        for (String path : new String[] {"/", "/index.html"}) {
            RestResponse r = get(path, null);
            assertEquals(200, r.status());
            assertEquals("text/html; charset=utf-8", r.contentType());
            assertEquals("no-cache", r.headers().get("cache-control"));
            String html = new String(r.body(), StandardCharsets.UTF_8);
            assertTrue(html.contains("/ui/" + assets.build() + "/app.js"), html);
            assertTrue(!html.contains("@BUILD@"), html);
            assertEquals(304, get(path, r.headers().get("etag")).status(), "revalidated");
        }
    }

    @Test
    void assetsAreCachedForAYearWithAnEtag() throws Exception {
        RestResponse r = get("/ui/" + assets.build() + "/app.js", null);
        assertEquals(200, r.status());
        assertEquals("text/javascript; charset=utf-8", r.contentType());
        assertEquals("public, max-age=31536000, immutable", r.headers().get("cache-control"));
        String etag = r.headers().get("etag");
        assertTrue(etag.matches("\"[0-9a-f]{32}\""), etag);
        RestResponse again = get("/ui/" + assets.build() + "/app.js", etag);
        assertEquals(304, again.status());
        assertEquals(0, again.body().length);
        assertEquals(200, get("/ui/" + assets.build() + "/app.js", "\"other\"").status());
        assertEquals("text/css; charset=utf-8", get("/ui/" + assets.build() + "/app.css", null).contentType());
        assertEquals(200, get("/ui/" + assets.build() + "/vendor/uPlot.esm.js", null).status());
    }

    @Test
    void unknownPathsAndOtherBuildsArePbsNotFound() throws Exception {
        for (String path : new String[] {"/ui/0000000000000000/app.js", "/ui/" + assets.build() + "/nope.js",
                "/ui/" + assets.build() + "/index.html", "/ui/" + assets.build() + "/../pom.xml"}) {
            ApiException e = assertThrows(ApiException.class, () -> get(path, null), path);
            assertEquals(404, e.status());
            assertEquals("Path '" + path + "' not found.", e.getMessage());
        }
        // any other path (a route outside /api2/json such as /metrics, or an unknown one) is the routing table's
        assertArrayEquals("api /favicon.ico".getBytes(StandardCharsets.UTF_8), get("/favicon.ico", null).body());
        HttpHeaders h = new DefaultHttpHeaders();
        ApiException post = assertThrows(ApiException.class,
                () -> ui.handle(new RestRequest("POST", "/", "", h, new byte[0], null)));
        assertEquals(404, post.status());
    }

    @Test
    void theApiIsPassedThroughUnchanged() throws Exception {
        RestResponse r = get("/api2/json/version", null);
        assertArrayEquals("api /api2/json/version".getBytes(StandardCharsets.UTF_8), r.body());
    }

    /** Every relative ES module import names a file that is served (a missing one is a blank page). */
    @Test
    void everyModuleImportResolves() throws Exception {
        Pattern imp = Pattern.compile("from '(\\.{1,2}/[^']+)'");
        int checked = 0;
        for (String name : assets.names()) {
            if (!name.endsWith(".js") || name.startsWith("vendor/")) {
                continue;
            }
            String js = new String(assets.get(name).orElseThrow().body(), StandardCharsets.UTF_8);
            Matcher m = imp.matcher(js);
            while (m.find()) {
                String target = java.net.URI.create("x:/" + name).resolve(m.group(1)).getPath().substring(1);
                assertTrue(assets.get(target).isPresent(), name + " imports " + m.group(1) + " (" + target + "), not served");
                checked++;
            }
        }
        assertTrue(checked > 10, "imports checked: " + checked);
    }
}
