package org.jpbs.server.http;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.RejectedExecutionException;

/**
 * Serves one HTTP/2 stream of a backup or reader session: on HEADERS it asks the
 * {@link Http2Service} for a {@link Route} (errors are answered at once), buffers DATA up to
 * the route's limit, and when the request ends hands the body to the route's executor (never
 * decoding or writing on the event loop). The response is written back from that thread.
 * After an early answer the rest of the request body is read and dropped. Buffered bytes are
 * counted in the connection's {@link InflightBytes}, which pauses reading while too much is held.
 */
final class Http2StreamHandler extends ChannelInboundHandlerAdapter {
    private final Http2Service service;
    private final InflightBytes inflight;
    private Route route;
    private String method = "";
    private String path = "";
    private CompositeByteBuf body;
    private long received;
    private long buffered;
    private boolean answered;

    Http2StreamHandler(Http2Service service, InflightBytes inflight) {
        this.service = service;
        this.inflight = inflight;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof Http2HeadersFrame h) {
                if (route == null && !answered) {
                    onHeaders(ctx, h.headers());
                }
                if (h.isEndStream()) {
                    onEnd(ctx);
                }
            } else if (msg instanceof Http2DataFrame d) {
                onData(ctx, d);
                if (d.isEndStream()) {
                    onEnd(ctx);
                }
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void onHeaders(ChannelHandlerContext ctx, Http2Headers headers) {
        String method = headers.method() == null ? "" : headers.method().toString();
        String full = headers.path() == null ? "/" : headers.path().toString();
        int q = full.indexOf('?');
        String path = UriPaths.normalize(q < 0 ? full : full.substring(0, q));
        String query = q < 0 ? "" : full.substring(q + 1);
        CharSequence ct = headers.get(HttpHeaderNames.CONTENT_TYPE);
        this.method = method;
        this.path = path;
        try {
            route = service.route(method, path, query, ct == null ? null : ct.toString());
            if (!route.discardBody()) {
                body = ctx.alloc().compositeBuffer(Integer.MAX_VALUE);
            }
        } catch (RuntimeException e) {
            respond(ctx, failed(ErrorMapper.map(e)));
        }
    }

    /** The error answer, after telling the service (which logs it into its task, as PBS). */
    private H2Response failed(ApiException e) {
        try {
            service.requestFailed(method, path, e);
        } catch (RuntimeException ignored) {
            // logging must not change the answer
        }
        return H2Response.error(e);
    }

    private void onData(ChannelHandlerContext ctx, Http2DataFrame d) {
        if (answered || route == null) {
            return;
        }
        int n = d.content().readableBytes();
        received += n;
        if (route.discardBody() || n == 0) {
            return;
        }
        if (received > route.maxBody()) {
            freeBody();
            respond(ctx, failed(ApiException.badRequest(route.tooLargeMessage())));
            return;
        }
        body.addComponent(true, d.content().retain());
        buffered += n;
        inflight.received(n);
    }

    private void onEnd(ChannelHandlerContext ctx) {
        if (answered || route == null) {
            return;
        }
        answered = true; // from here on the worker owns the body and writes the answer
        CompositeByteBuf b = body;
        body = null;
        Route r = route;
        long held = buffered;
        buffered = 0;
        inflight.completed(held);
        try {
            r.executor().execute(() -> {
                H2Response resp;
                try {
                    byte[] bytes = b == null ? new byte[0] : ByteBufUtil.getBytes(b);
                    if (b != null) {
                        b.release();
                    }
                    resp = r.handler().handle(bytes);
                } catch (Throwable e) {
                    resp = failed(ErrorMapper.map(e));
                } finally {
                    if (b != null && b.refCnt() > 0) {
                        b.release();
                    }
                    inflight.processed(held);
                }
                write(ctx, resp);
            });
        } catch (RejectedExecutionException e) {
            if (b != null) {
                b.release();
            }
            inflight.processed(held);
            write(ctx, H2Response.error(new ApiException(503, "server is shutting down")));
        }
    }

    private void respond(ChannelHandlerContext ctx, H2Response resp) {
        answered = true;
        write(ctx, resp);
    }

    private static void write(ChannelHandlerContext ctx, H2Response resp) {
        Http2Headers h = new DefaultHttp2Headers().status(Integer.toString(resp.status()));
        h.set(HttpHeaderNames.CONTENT_TYPE, resp.contentType());
        h.setInt(HttpHeaderNames.CONTENT_LENGTH, resp.body().length);
        ctx.executor().execute(() -> {
            if (!ctx.channel().isActive()) {
                return;
            }
            if (resp.body().length == 0) {
                ctx.writeAndFlush(new DefaultHttp2HeadersFrame(h, true));
            } else {
                ctx.write(new DefaultHttp2HeadersFrame(h, false));
                ctx.writeAndFlush(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(resp.body()), true));
            }
        });
    }

    private void freeBody() {
        if (body != null) {
            body.release();
            body = null;
        }
        if (buffered > 0) {
            inflight.dropped(buffered);
            buffered = 0;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        freeBody();
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        freeBody();
        ctx.close();
    }
}
