package org.jpbs.server.http;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * The HTTP/1.1 side after TLS: answers refused upgrades with their error (see
 * {@link PbsUpgradeCodec#UPGRADE_ERROR}), refuses non-upgrade requests to the backup/reader
 * paths ({@code "missing Upgrade header"}, {@code "invalid protocol name"}, {@code docs/protocol.md#backup-upgrade} step 3; other
 * methods than GET there: 404 {@code "Path '...' not found."}), answers 414 to a path plus query
 * longer than {@link UriPaths#MAX_URI_LENGTH} bytes ({@code docs/protocol.md#transport}), and
 * hands every other request to the {@link RestHandler} on a worker. Reading is paused while a
 * request is served, so pipelined requests are answered in order and a later upgrade on the
 * same kept-alive connection works ({@code docs/protocol.md}, "Confirmed on the wire").
 */
final class Http1Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final System.Logger LOG = System.getLogger(Http1Handler.class.getName());
    private final RestHandler rest;
    private final Executor workers;

    Http1Handler(RestHandler rest, Executor workers) {
        this.rest = rest;
        this.workers = workers;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
        boolean keepAlive = HttpUtil.isKeepAlive(req);
        if (req.decoderResult().isFailure()) {
            if (req.decoderResult().cause() instanceof io.netty.handler.codec.http.TooLongHttpLineException) {
                send(ctx, uriTooLong(), false);
            } else if (req.decoderResult().cause() instanceof io.netty.handler.codec.http.TooLongHttpHeaderException) {
                // over Netty's 8 KiB header limit: RFC 6585 §5; the connection is closed (the rest cannot be parsed)
                send(ctx, new RestResponse(431, "text/plain", bytes("request header fields too large"), Map.of()), false);
            } else {
                send(ctx, new RestResponse(400, "text/plain", bytes("bad request"), Map.of()), false);
            }
            return;
        }
        ApiException refused = ctx.channel().attr(PbsUpgradeCodec.UPGRADE_ERROR).getAndSet(null);
        if (refused != null) {
            send(ctx, refused.status() == 414 ? uriTooLong() : errorResponse(refused), keepAlive);
            return;
        }
        String uri = req.uri();
        if (UriPaths.tooLong(uri)) {
            send(ctx, uriTooLong(), keepAlive);
            return;
        }
        int q = uri.indexOf('?');
        String path = UriPaths.normalize(q < 0 ? uri : uri.substring(0, q));
        String query = q < 0 ? "" : uri.substring(q + 1);
        if (path.equals("/api2/json/backup") || path.equals("/api2/json/reader")) {
            if (!req.method().name().equals("GET")) { // the upgrade is the path's only method, a GET
                send(ctx, errorResponse(ApiException.pathNotFound(path)), keepAlive);
                return;
            }
            String msg = req.headers().contains(HttpHeaderNames.UPGRADE) ? "invalid protocol name" : "missing Upgrade header";
            send(ctx, errorResponse(ApiException.badRequest(msg)), keepAlive);
            return;
        }
        RestRequest rr = new RestRequest(req.method().name(), path, query, req.headers().copy(),
                ByteBufUtil.getBytes(req.content()), ctx.channel().remoteAddress());
        ctx.channel().config().setAutoRead(false);
        try {
            workers.execute(() -> {
                RestResponse resp;
                try {
                    resp = ResponseCompression.apply(rr, rest.handle(rr));
                } catch (Throwable e) {
                    resp = errorResponse(ErrorMapper.map(e));
                }
                if (resp.stream() != null) {
                    stream(ctx, resp, keepAlive);
                    return;
                }
                RestResponse r = resp;
                ctx.executor().execute(() -> {
                    send(ctx, r, keepAlive);
                    ctx.channel().config().setAutoRead(true);
                });
            });
        } catch (RejectedExecutionException e) {
            send(ctx, errorResponse(new ApiException(503, "server is shutting down")), false);
        }
    }

    /**
     * Sends a streamed response from the worker thread: the head with
     * {@code transfer-encoding: chunked}, then the body in chunks ({@link ChunkedBodyStream}).
     * A failure while writing the body closes the connection (the status line is already out).
     */
    private static void stream(ChannelHandlerContext ctx, RestResponse r, boolean keepAlive) {
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(r.status()));
        if (r.contentType() != null) {
            head.headers().set(HttpHeaderNames.CONTENT_TYPE, r.contentType());
        }
        r.headers().forEach((k, v) -> head.headers().set(k, v));
        HttpUtil.setTransferEncodingChunked(head, true);
        head.headers().set(HttpHeaderNames.CONNECTION, keepAlive ? HttpHeaderValues.KEEP_ALIVE : HttpHeaderValues.CLOSE);
        ctx.writeAndFlush(head);
        ChunkedBodyStream out = new ChunkedBodyStream(ctx);
        try {
            r.stream().writeTo(out);
            out.finish();
        } catch (Throwable e) {
            out.discard();
            LOG.log(System.Logger.Level.WARNING, "streamed response to " + ctx.channel().remoteAddress()
                    + " aborted: " + e.getMessage());
            ctx.close();
            return;
        }
        if (keepAlive) {
            ctx.executor().execute(() -> ctx.channel().config().setAutoRead(true));
        } else {
            ctx.close();
        }
    }

    /** 414 with an empty body, as PBS answers a path plus query longer than {@link UriPaths#MAX_URI_LENGTH}. */
    private static RestResponse uriTooLong() {
        return new RestResponse(414, null, new byte[0], Map.of());
    }

    static RestResponse errorResponse(ApiException e) {
        String ct = e.status() == 401 ? null : H2Response.JSON_UTF8;
        return new RestResponse(e.status(), ct, bytes(e.getMessage()), Map.of());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void send(ChannelHandlerContext ctx, RestResponse r, boolean keepAlive) {
        FullHttpResponse resp = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(r.status()), Unpooled.wrappedBuffer(r.body()));
        if (r.contentType() != null) {
            resp.headers().set(HttpHeaderNames.CONTENT_TYPE, r.contentType());
        }
        r.headers().forEach((k, v) -> resp.headers().set(k, v));
        HttpUtil.setContentLength(resp, r.body().length);
        if (keepAlive) {
            resp.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(resp);
        } else {
            resp.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(resp).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
