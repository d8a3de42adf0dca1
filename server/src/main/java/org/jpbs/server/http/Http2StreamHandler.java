package org.jpbs.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.util.ReferenceCountUtil;
import java.util.Arrays;
import java.util.concurrent.RejectedExecutionException;

/**
 * Serves one HTTP/2 stream of a backup or reader session: on HEADERS it asks the
 * {@link Http2Service} for a {@link Route} (errors are answered at once), copies DATA up to
 * the route's limit into one array (allocated when the first DATA arrives, sized from
 * {@code content-length} when the request has one and the server-wide budget has room, so a
 * chunk body is copied once and each frame's buffer is freed at once), and when the request
 * ends hands the body to the route's executor (never decoding or writing on the event loop).
 * The response is written back from that thread.
 * After an early answer the rest of the request body is read and dropped. Buffered bytes are
 * counted in the connection's {@link InflightBytes}; the stream's flow-control credit
 * (WINDOW_UPDATE, the stream channel's automatic flow control is off) goes back through it, so
 * it is withheld while too much is held ({@code docs/network-client.md}, "Server memory").
 */
final class Http2StreamHandler extends ChannelInboundHandlerAdapter {
    private final Http2Service service;
    private final InflightBytes inflight;
    private final InflightBytes.Window window = this::windowUpdate;
    private ChannelHandlerContext ctx;
    private Route route;
    private String method = "";
    private String path = "";
    /** Largest array allocated before the bytes arrive when there is no content-length. */
    static final int INITIAL_BODY = 64 * 1024;
    /**
     * Largest announced {@code content-length} allocated at once (on the first DATA frame, when
     * the budget has room): a fixed-size chunk (4 MiB) plus the blob header. Larger bodies, and
     * bodies arriving while the budget is full, grow with the bytes that really arrive, so headers
     * alone cannot make the server allocate memory.
     */
    static final int PREALLOCATE_MAX = 4 * 1024 * 1024 + 64 * 1024;
    private byte[] body;
    private int length;
    /** The request's {@code content-length}, or -1: growth stops there. */
    private long expected = -1;
    private long received;
    private long buffered;
    private boolean answered;

    Http2StreamHandler(Http2Service service, InflightBytes inflight) {
        this.service = service;
        this.inflight = inflight;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /** Gives {@code bytes} of flow-control credit back to the client (stream and connection window). */
    private void windowUpdate(int bytes) {
        ctx.write(new DefaultHttp2WindowUpdateFrame(bytes));
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof Http2HeadersFrame h) {
                if (route == null && !answered) {
                    onHeaders(ctx, h.headers(), h.isEndStream());
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

    private void onHeaders(ChannelHandlerContext ctx, Http2Headers headers, boolean noBody) {
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
            if (noBody) {
                body = new byte[0];
            } else if (!route.discardBody()) {
                expected = headers.getLong(HttpHeaderNames.CONTENT_LENGTH, -1L);
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
        boolean held = false;
        try {
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
            append(d.content(), n);
            held = true;
        } finally {
            inflight.consumed(window, d.initialFlowControlledBytes(), held);
        }
    }

    /**
     * Copies a frame's bytes into the body array: the first frame allocates the announced size
     * if it is at most {@link #PREALLOCATE_MAX} and fits into the server-wide budget, else what
     * arrived; later frames grow it by doubling (or at once to the announced size when that fits),
     * never beyond the announced size or the route's limit.
     */
    private void append(ByteBuf b, int n) {
        int capacity = body == null ? 0 : body.length;
        if (length + n > capacity) {
            long max = Math.min(route.maxBody(), Integer.MAX_VALUE - 16);
            long need = length + (long) n;
            long grown;
            if (expected >= need && expected <= max && (capacity > 0 || expected <= PREALLOCATE_MAX)
                    && inflight.roomFor(expected - capacity)) {
                grown = expected;
            } else {
                grown = Math.max(need, capacity == 0 ? INITIAL_BODY : 2L * capacity);
                if (expected >= need) {
                    grown = Math.min(grown, expected);
                }
            }
            reserve(body == null ? new byte[(int) Math.min(max, grown)] : Arrays.copyOf(body, (int) Math.min(max, grown)));
        }
        b.getBytes(b.readerIndex(), body, length, n);
        length += n;
    }

    /** Makes {@code bigger} the body array; its whole size counts as held (so announced sizes cannot overcommit memory). */
    private void reserve(byte[] bigger) {
        int grown = bigger.length - (body == null ? 0 : body.length);
        body = bigger;
        buffered += grown;
        inflight.received(grown);
    }

    private void onEnd(ChannelHandlerContext ctx) {
        if (answered || route == null) {
            return;
        }
        answered = true; // from here on the worker owns the body and writes the answer
        byte[] bytes = body == null ? new byte[0] : length == body.length ? body : Arrays.copyOf(body, length);
        body = null;
        Route r = route;
        long held = buffered;
        buffered = 0;
        inflight.completed(held);
        try {
            r.executor().execute(() -> {
                H2Response resp;
                try {
                    resp = r.handler().handle(bytes);
                } catch (Throwable e) {
                    resp = failed(ErrorMapper.map(e));
                } finally {
                    inflight.processed(held);
                }
                write(ctx, resp);
            });
        } catch (RejectedExecutionException e) {
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
        body = null;
        length = 0;
        if (buffered > 0) {
            inflight.dropped(buffered);
            buffered = 0;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        inflight.closed(window);
        freeBody();
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        freeBody();
        ctx.close();
    }
}
