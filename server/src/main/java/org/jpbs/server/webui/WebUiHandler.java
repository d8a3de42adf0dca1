package org.jpbs.server.webui;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.RestHandler;
import org.jpbs.server.http.RestRequest;
import org.jpbs.server.http.RestResponse;

/**
 * Puts the web interface in front of the API handler ({@code docs/ui.md}): every path under
 * {@code /api2/} goes to the API unchanged; {@code GET|HEAD /} (and {@code /index.html}) answers
 * the page with {@code Cache-Control: no-cache}; {@code GET|HEAD /ui/<build>/<file>} answers an
 * asset with a one-year immutable cache and its ETag ({@code If-None-Match} gives 304);
 * everything else is PBS's 404 {@code "Path '...' not found."}. No authentication here: the
 * files are public, the data behind them is fetched through the API.
 */
public final class WebUiHandler implements RestHandler {
    private static final String IMMUTABLE = "public, max-age=31536000, immutable";

    private final RestHandler api;
    private final WebAssets assets;
    private final byte[] index;
    private final String indexEtag;

    /**
     * @param api    the {@code /api2/json} handler
     * @param assets the pages and modules
     */
    public WebUiHandler(RestHandler api, WebAssets assets) {
        this.api = api;
        this.assets = assets;
        WebAssets.Asset page = assets.get("index.html")
                .orElseThrow(() -> new IllegalStateException("web interface: index.html missing"));
        this.index = new String(page.body(), StandardCharsets.UTF_8).replace("@BUILD@", assets.build())
                .getBytes(StandardCharsets.UTF_8);
        this.indexEtag = "\"" + assets.build() + "\"";
    }

    /** {@code api} behind the web interface with the jar's assets. */
    public static RestHandler wrap(RestHandler api) {
        return api instanceof WebUiHandler ? api : new WebUiHandler(api, WebAssets.load());
    }

    /** The API handler behind the pages. */
    public RestHandler api() {
        return api;
    }

    @Override
    public RestResponse handle(RestRequest req) throws Exception {
        String path = req.path();
        if (path.startsWith("/api2/")) {
            return api.handle(req);
        }
        boolean read = req.method().equals("GET") || req.method().equals("HEAD");
        if (read && (path.equals("/") || path.equals("/index.html"))) {
            return answer(req, index, "text/html; charset=utf-8", indexEtag, "no-cache");
        }
        String prefix = "/ui/" + assets.build() + "/";
        if (read && path.startsWith(prefix)) {
            Optional<WebAssets.Asset> a = assets.get(path.substring(prefix.length()));
            if (a.isPresent() && !a.get().contentType().startsWith("text/html")) {
                return answer(req, a.get().body(), a.get().contentType(), a.get().etag(), IMMUTABLE);
            }
        }
        if (path.equals("/") || path.equals("/index.html") || path.startsWith("/ui/")) {
            throw ApiException.pathNotFound(path);
        }
        // the routes outside /api2/json (e.g. /metrics) and PBS's 404 for any other path: the routing table's
        return api.handle(req);
    }

    private static RestResponse answer(RestRequest req, byte[] body, String type, String etag, String cache) {
        Map<String, String> headers = Map.of("cache-control", cache, "etag", etag,
                "x-content-type-options", "nosniff", "referrer-policy", "same-origin",
                "content-security-policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                        + "frame-ancestors 'none'");
        String inm = req.headers().get("if-none-match");
        if (inm != null && (inm.equals(etag) || inm.equals("W/" + etag))) {
            return new RestResponse(304, null, new byte[0], headers);
        }
        return new RestResponse(200, type, body, headers);
    }
}
