package org.jpbs.server.http;

import io.netty.handler.codec.http.HttpHeaders;
import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.zip.Deflater;

/**
 * Compression of API answers, as PBS's REST server ({@code docs/api.md#conventions-as-pbs}): when
 * the request's {@code Accept-Encoding} names {@code deflate} (what every browser sends), a JSON
 * answer under {@code /api2/} goes out with {@code Content-Encoding: deflate} (the zlib format,
 * RFC 1950, as PBS). PBS knows no other method, so {@code gzip} or {@code br} alone leave the
 * answer as it is. Streamed answers (downloads, snapshot lists) and 401s are never compressed;
 * neither are answers below {@link #MIN_SIZE} bytes, where compression gains nothing.
 */
public final class ResponseCompression {
    /** Answers shorter than this go out as they are. */
    static final int MIN_SIZE = 1024;

    private ResponseCompression() {}

    /** True if {@code Accept-Encoding} lists {@code deflate} (a {@code q=0} refuses it). */
    static boolean acceptsDeflate(HttpHeaders headers) {
        for (String value : headers.getAll("accept-encoding")) {
            for (String part : value.split(",")) {
                String[] f = part.trim().split(";");
                if (!f[0].trim().toLowerCase(Locale.ROOT).equals("deflate")) {
                    continue;
                }
                for (int i = 1; i < f.length; i++) {
                    String q = f[i].trim().replace(" ", "");
                    if (q.matches("q=0(\\.0*)?")) {
                        return false;
                    }
                }
                return true;
            }
        }
        return false;
    }

    /** {@code resp}, deflated if the request accepts it and the answer is a JSON API answer worth compressing. */
    public static RestResponse apply(RestRequest req, RestResponse resp) {
        if (resp.stream() != null || resp.body().length < MIN_SIZE || resp.contentType() == null
                || !resp.contentType().startsWith("application/json") || !req.path().startsWith("/api2/")
                || resp.headers().keySet().stream().anyMatch(k -> k.equalsIgnoreCase("content-encoding"))
                || !acceptsDeflate(req.headers())) {
            return resp;
        }
        Map<String, String> headers = new HashMap<>(resp.headers());
        headers.put("content-encoding", "deflate");
        return new RestResponse(resp.status(), resp.contentType(), deflate(resp.body()), headers);
    }

    /** The zlib stream of {@code data} (fastest level: the answers are repetitive JSON). */
    static byte[] deflate(byte[] data) {
        Deflater d = new Deflater(Deflater.BEST_SPEED);
        try {
            d.setInput(data);
            d.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, data.length / 8));
            byte[] buf = new byte[64 * 1024];
            while (!d.finished()) {
                out.write(buf, 0, d.deflate(buf));
            }
            return out.toByteArray();
        } finally {
            d.end();
        }
    }
}
