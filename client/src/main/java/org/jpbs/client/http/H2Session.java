package org.jpbs.client.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An upgraded PBS session: HTTP/2 over the TLS connection that sent the upgrade ({@code docs/protocol.md#backup-upgrade}, {@code docs/protocol.md#parameters-and-answers-inside-a-session}, {@code docs/protocol.md#reader-session}). Every {@link #call} opens a new stream with
 * {@link Http2StreamChannelBootstrap}; calls are independent and may run concurrently from any
 * thread. Flow control is left to Netty (our windows are 2^31-2, frames up to 4 MiB).
 *
 * <p>The session ends when {@link #close()} closes the connection; for a backup session that is
 * also how an unfinished backup is aborted ({@code docs/protocol.md#end-abort-and-cleanup}). Calls in flight then fail.
 */
public final class H2Session implements H2Call, AutoCloseable {
    private final Channel channel;
    private final String authority;

    H2Session(Channel channel, String authority) {
        this.channel = channel;
        this.authority = authority;
    }

    @Override
    public CompletableFuture<Response> call(String method, String path, String query, String contentType, byte[] body) {
        CompletableFuture<Response> f = new CompletableFuture<>();
        String what = method + " " + path;
        if (!channel.isActive()) {
            f.completeExceptionally(new IOException(what + ": the connection to " + authority + " is closed"));
            return f;
        }
        String pathAndQuery = query == null || query.isEmpty() ? path : path + "?" + query;
        new Http2StreamChannelBootstrap(channel).handler(new StreamHandler(f, what, authority)).open().addListener(of -> {
            if (!of.isSuccess()) {
                f.completeExceptionally(new IOException(what + ": cannot open an HTTP/2 stream to " + authority + ": "
                        + HttpsConnection.describe(of.cause()), of.cause()));
                return;
            }
            Http2StreamChannel s = (Http2StreamChannel) of.getNow();
            Http2Headers h = new DefaultHttp2Headers().method(method).path(pathAndQuery).scheme("https")
                    .authority(authority);
            h.set(HttpHeaderNames.USER_AGENT, HttpsConnection.USER_AGENT);
            if (contentType != null) {
                h.set(HttpHeaderNames.CONTENT_TYPE, contentType);
            }
            boolean hasBody = body != null && body.length > 0;
            if (hasBody) {
                h.setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
            }
            s.write(new DefaultHttp2HeadersFrame(h, !hasBody));
            if (hasBody) {
                s.write(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(body), true));
            }
            s.flush();
        });
        return f;
    }

    /** True while the connection is open. */
    public boolean isOpen() {
        return channel.isActive();
    }

    /** Completes when the connection has closed. */
    public CompletableFuture<Void> closed() {
        CompletableFuture<Void> f = new CompletableFuture<>();
        channel.closeFuture().addListener(x -> f.complete(null));
        return f;
    }

    /**
     * The connection's Netty channel, for protocol tests that slow the connection down, stop
     * reading or send raw HTTP/2 frames; requests go through {@link #call}.
     */
    public Channel channel() {
        return channel;
    }

    /** {@code host:port} of the server. */
    public String authority() {
        return authority;
    }

    /** Closes the connection (waits up to 5 s, unless called on its network thread); calls in flight fail. */
    @Override
    public void close() {
        io.netty.channel.ChannelFuture f = channel.close();
        if (!channel.eventLoop().inEventLoop()) {
            f.awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    /** Drops connection-level frames the multiplexer passes up (SETTINGS, PING, GOAWAY). */
    static final class ParentHandler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg); // after a GOAWAY, streams in flight still finish
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /** Collects one stream's response. */
    private static final class StreamHandler extends ChannelInboundHandlerAdapter {
        private static final int PREALLOCATE_LIMIT = 64 * 1024 * 1024;
        private final CompletableFuture<Response> future;
        private final String what;
        private final String authority;
        private int status;
        private String contentType;
        private byte[] body = new byte[0];
        private int length;

        StreamHandler(CompletableFuture<Response> future, String what, String authority) {
            this.future = future;
            this.what = what;
            this.authority = authority;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof Http2HeadersFrame h) {
                    CharSequence st = h.headers().status();
                    if (st != null) {
                        status = Integer.parseInt(st.toString());
                        CharSequence ct = h.headers().get(HttpHeaderNames.CONTENT_TYPE);
                        contentType = ct == null ? null : ct.toString();
                        long cl = h.headers().getLong(HttpHeaderNames.CONTENT_LENGTH, -1L);
                        if (cl > 0 && cl <= PREALLOCATE_LIMIT && body.length == 0) {
                            body = new byte[(int) cl];
                        }
                    }
                    if (h.isEndStream()) {
                        done(ctx);
                    }
                } else if (msg instanceof Http2DataFrame d) {
                    append(d.content());
                    if (d.isEndStream()) {
                        done(ctx);
                    }
                } else if (msg instanceof Http2ResetFrame r) {
                    future.completeExceptionally(new IOException(what + ": stream reset by " + authority
                            + " (HTTP/2 error code " + r.errorCode() + ")"));
                    ctx.close();
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        private void append(ByteBuf b) {
            int n = b.readableBytes();
            if (length + n > body.length) {
                body = Arrays.copyOf(body, Math.max(length + n, body.length * 2));
            }
            b.readBytes(body, length, n);
            length += n;
        }

        private void done(ChannelHandlerContext ctx) {
            byte[] out = length == body.length ? body : Arrays.copyOf(body, length);
            future.complete(new Response(status, contentType, out));
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            future.completeExceptionally(new IOException(what + ": connection to " + authority
                    + " closed before the response ended"));
            super.channelInactive(ctx);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            future.completeExceptionally(new IOException(what + ": " + HttpsConnection.describe(cause), cause));
            ctx.close();
        }
    }
}
