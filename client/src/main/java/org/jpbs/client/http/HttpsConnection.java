package org.jpbs.client.http;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpClientUpgradeHandler;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One TLS connection to a PBS-style server ({@code docs/protocol.md#transport}): HTTP/1.1
 * requests one at a time ({@link #request}, for the REST API), and the upgrade to a backup or
 * reader session ({@link #upgrade}), after which the connection belongs to the returned
 * {@link H2Session}. Requests are synchronous with a timeout (PBS: 120 s per HTTP/1 request,
 * which includes waiting for the {@code 101}).
 */
public final class HttpsConnection implements AutoCloseable {
    /** Default TCP connect timeout (PBS: 10 s). */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** Default HTTP/1 request timeout (PBS: 120 s). */
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(120);
    /** User agent of every request. */
    public static final String USER_AGENT = "jpbs-client/1.0";
    /** Largest HTTP/1 response body accepted (a REST download of a blob or index). */
    static final int MAX_HTTP1_BODY = 64 * 1024 * 1024;

    private final Channel channel;
    private final String host;
    private final int port;
    private final String hostHeader;
    private final String fingerprint;
    private final Http1Handler handler;
    private boolean upgraded;

    private HttpsConnection(Channel channel, String host, int port, String fingerprint, Http1Handler handler) {
        this.channel = channel;
        this.host = host;
        this.port = port;
        this.hostHeader = (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        this.fingerprint = fingerprint;
        this.handler = handler;
    }

    /**
     * Connects and completes the TLS handshake.
     *
     * @param host  DNS name or IP literal (IPv6 without brackets)
     * @param port  TCP port
     * @param trust which certificates to accept
     * @throws UntrustedCertificateException if the certificate is not trusted (message shows its fingerprint)
     * @throws IOException if the connection or the handshake fails
     */
    public static HttpsConnection connect(String host, int port, TlsTrust trust) throws IOException {
        TlsTrust.Verifier verifier = trust.newVerifier();
        SslContext ssl = verifier.sslContext();
        Http1Handler h1 = new Http1Handler(host + ":" + port);
        // kept here: a refused handshake removes the handler from the pipeline, possibly before we ask for it
        java.util.concurrent.atomic.AtomicReference<SslHandler> tlsHandler = new java.util.concurrent.atomic.AtomicReference<>();
        Bootstrap b = new Bootstrap().group(EventLoops.group()).channel(NioSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) CONNECT_TIMEOUT.toMillis())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        // the HTTP/2 flow controller writes up to this much per round: whole frames, not ~1 KiB slices
                        ch.config().setWriteBufferWaterMark(H2Codecs.WRITE_BUFFER);
                        SslHandler tls = ssl.newHandler(ch.alloc(), host, port);
                        tls.setHandshakeTimeoutMillis(30_000);
                        tlsHandler.set(tls);
                        ch.pipeline().addLast("tls", tls);
                        ch.pipeline().addLast("http", new HttpClientCodec());
                        ch.pipeline().addLast("agg", new HttpObjectAggregator(MAX_HTTP1_BODY));
                        ch.pipeline().addLast("h1", h1);
                    }
                });
        String where = (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        ChannelFuture cf = b.connect(host, port);
        cf.awaitUninterruptibly();
        if (!cf.isSuccess()) {
            throw new IOException("cannot connect to " + where + ": " + describe(cf.cause()), cf.cause());
        }
        Channel ch = cf.channel();
        io.netty.util.concurrent.Future<Channel> hs = tlsHandler.get().handshakeFuture();
        hs.awaitUninterruptibly();
        if (!hs.isSuccess()) {
            ch.close();
            if (verifier.refusal() != null) {
                throw new UntrustedCertificateException(where + ": " + verifier.refusal(), verifier.seenFingerprint());
            }
            throw new IOException("TLS handshake with " + where + " failed: " + describe(hs.cause()), hs.cause());
        }
        return new HttpsConnection(ch, host, port, verifier.seenFingerprint(), h1);
    }

    static String describe(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c && (c.getMessage() == null || c instanceof ExecutionException)) {
            c = c.getCause();
        }
        return c.getMessage() != null ? c.getMessage() : c.getClass().getSimpleName();
    }

    /** The SHA-256 fingerprint of the server certificate ({@code ab:cd:...}). */
    public String fingerprint() {
        return fingerprint;
    }

    /** {@code host:port} (IPv6 in brackets). */
    public String hostAndPort() {
        return hostHeader;
    }

    /**
     * Sends one HTTP/1.1 request and waits for the whole response (keep-alive: the connection can
     * take the next request afterwards).
     *
     * @param method       e.g. {@code GET}, {@code POST}
     * @param pathAndQuery e.g. {@code /api2/json/version}
     * @param headers      extra headers (auth), may be empty
     * @param contentType  content type of {@code body}, or null
     * @param body         the body or null
     * @return the response, any status
     * @throws IOException if the connection fails or no answer comes within {@link #REQUEST_TIMEOUT}
     */
    public synchronized Response request(String method, String pathAndQuery, Map<String, String> headers,
            String contentType, byte[] body) throws IOException {
        if (upgraded) {
            throw new IllegalStateException("connection was upgraded to HTTP/2");
        }
        FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.valueOf(method), pathAndQuery,
                body == null ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body));
        fillHeaders(req, headers);
        if (contentType != null) {
            req.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        }
        req.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body == null ? 0 : body.length);
        Object answer = send(req, method + " " + pathOnly(pathAndQuery));
        if (answer instanceof Response r) {
            return r;
        }
        throw new IOException(method + " " + pathOnly(pathAndQuery) + ": unexpected protocol switch");
    }

    /**
     * Asks to switch this connection to a PBS HTTP/2 session ({@code docs/protocol.md#backup-upgrade}, {@code docs/protocol.md#reader-session}): {@code GET pathAndQuery} with {@code Connection: upgrade} and
     * {@code Upgrade: <protocol>}. On {@code 101} the connection speaks HTTP/2 and belongs to the
     * returned session; on any other answer it is closed.
     *
     * @param protocol {@code proxmox-backup-protocol-v1} or {@code proxmox-backup-reader-protocol-v1}
     * @param headers  auth headers
     * @throws HttpStatusException if the server refuses (its message, e.g. "backup timestamp is older than last backup.")
     * @throws IOException if the connection fails
     */
    public synchronized H2Session upgrade(String pathAndQuery, String protocol, Map<String, String> headers)
            throws IOException {
        if (upgraded) {
            throw new IllegalStateException("connection was already upgraded");
        }
        HttpClientCodec codec = channel.pipeline().get(HttpClientCodec.class);
        channel.pipeline().addAfter("http", "upgrade",
                new HttpClientUpgradeHandler(codec, new PbsUpgradeCodec(protocol), 1 << 20));
        FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, pathAndQuery,
                Unpooled.EMPTY_BUFFER);
        fillHeaders(req, headers);
        String what = "upgrade to " + protocol + " (" + pathOnly(pathAndQuery) + ")";
        Object answer;
        try {
            answer = send(req, what);
        } catch (IOException e) {
            channel.close();
            throw e;
        }
        if (answer instanceof Response r) {
            channel.close();
            throw new HttpStatusException(what, r.status(), r.text());
        }
        upgraded = true;
        return new H2Session(channel, hostHeader);
    }

    private void fillHeaders(FullHttpRequest req, Map<String, String> headers) {
        req.headers().set(HttpHeaderNames.HOST, hostHeader);
        req.headers().set(HttpHeaderNames.USER_AGENT, USER_AGENT);
        headers.forEach((k, v) -> req.headers().set(k, v));
    }

    private Object send(FullHttpRequest req, String what) throws IOException {
        CompletableFuture<Object> answer = handler.expect(what);
        channel.writeAndFlush(req).addListener(f -> {
            if (!f.isSuccess()) {
                answer.completeExceptionally(new IOException(what + ": sending failed: " + describe(f.cause()), f.cause()));
            }
        });
        try {
            return answer.get(REQUEST_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            channel.close();
            throw new InterruptedIOException(what + ": interrupted");
        } catch (TimeoutException e) {
            channel.close();
            throw new IOException(what + ": no answer from " + hostHeader + " within " + REQUEST_TIMEOUT.toSeconds() + " s");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException(what + ": " + describe(e.getCause()), e.getCause());
        }
    }

    private static String pathOnly(String pathAndQuery) {
        int q = pathAndQuery.indexOf('?');
        return q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
    }

    /** True while the TCP connection is open. */
    public boolean isOpen() {
        return channel.isActive();
    }

    /** Closes the connection (unless it was handed to an {@link H2Session}). */
    @Override
    public synchronized void close() {
        if (!upgraded) {
            io.netty.channel.ChannelFuture f = channel.close();
            if (!channel.eventLoop().inEventLoop()) {
                f.awaitUninterruptibly(5, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * The end of the HTTP/1.1 pipeline: hands each aggregated response (or the upgrade event) to
     * the request waiting for it, and after a successful upgrade replaces itself with a handler
     * that drops connection-level HTTP/2 frames.
     */
    private static final class Http1Handler extends ChannelInboundHandlerAdapter {
        private final String peer;
        private volatile CompletableFuture<Object> pending;
        private volatile String what = "";

        Http1Handler(String peer) {
            this.peer = peer;
        }

        CompletableFuture<Object> expect(String what) {
            CompletableFuture<Object> f = new CompletableFuture<>();
            this.what = what;
            this.pending = f;
            return f;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof FullHttpResponse r) {
                    CompletableFuture<Object> f = pending;
                    if (f != null) {
                        CharSequence ct = r.headers().get(HttpHeaderNames.CONTENT_TYPE);
                        f.complete(new Response(r.status().code(), ct == null ? null : ct.toString(),
                                ByteBufUtil.getBytes(r.content())));
                    }
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
            if (evt == HttpClientUpgradeHandler.UpgradeEvent.UPGRADE_SUCCESSFUL) {
                ctx.pipeline().remove("agg");
                ctx.pipeline().addLast("h2-parent", new H2Session.ParentHandler());
                ctx.pipeline().remove(this);
                CompletableFuture<Object> f = pending;
                if (f != null) {
                    f.complete(Boolean.TRUE);
                }
                return;
            }
            super.userEventTriggered(ctx, evt);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            CompletableFuture<Object> f = pending;
            if (f != null) {
                f.completeExceptionally(new IOException(what + ": connection to " + peer + " closed"));
            }
            super.channelInactive(ctx);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            CompletableFuture<Object> f = pending;
            if (f != null) {
                f.completeExceptionally(new IOException(what + ": " + describe(cause), cause));
            }
            ctx.close();
        }
    }
}
