package org.jpbs.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpClientUpgradeHandler;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jpbs.server.tls.ServerCertificate;

/**
 * A Netty HTTP/2 test client speaking the PBS upgrade like the real client: TLS without ALPN,
 * trust-all plus a fingerprint check, an HTTP/1.1 {@code GET} with {@code Upgrade:
 * proxmox-backup-protocol-v1} (custom client upgrade codec, no h2c semantics), then HTTP/2
 * streams opened with {@link Http2StreamChannelBootstrap} (window 2^31-2, frames 4 MiB).
 */
final class PbsTestClient implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String BACKUP = "proxmox-backup-protocol-v1";
    static final String READER = "proxmox-backup-reader-protocol-v1";
    private static final EventLoopGroup GROUP = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    private static final long TIMEOUT_S = 120;

    /** A response: status, content type, body. */
    record Resp(int status, String contentType, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (java.io.IOException e) {
                throw new AssertionError("not JSON: " + text(), e);
            }
        }

        JsonNode data() {
            return json().get("data");
        }

        @Override
        public String toString() {
            return status + " " + (body.length > 300 ? "<" + body.length + " bytes>" : text());
        }
    }

    private final Channel channel;
    private final CompletableFuture<Object> upgradeOutcome = new CompletableFuture<>();

    private PbsTestClient(Channel channel) {
        this.channel = channel;
    }

    /**
     * Connects, completes the TLS handshake and checks the server certificate's fingerprint.
     *
     * @param protocol the upgrade protocol this connection will ask for
     */
    static PbsTestClient connect(int port, String fingerprint, String protocol) throws Exception {
        SslContext ssl = SslContextBuilder.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE)
                .sslProvider(SslProvider.JDK).protocols("TLSv1.3", "TLSv1.2").build();
        PbsTestClient[] holder = new PbsTestClient[1];
        Bootstrap b = new Bootstrap().group(GROUP).channel(NioSocketChannel.class)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        HttpClientCodec http = new HttpClientCodec();
                        ch.pipeline().addLast("tls", ssl.newHandler(ch.alloc(), "127.0.0.1", port));
                        ch.pipeline().addLast(http);
                        ch.pipeline().addLast(new HttpClientUpgradeHandler(http, new ClientCodec(protocol), 1 << 20));
                        ch.pipeline().addLast(new HttpObjectAggregator(1 << 20)); // a refused upgrade's answer
                        ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                            @Override
                            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                                if (evt == HttpClientUpgradeHandler.UpgradeEvent.UPGRADE_SUCCESSFUL) {
                                    holder[0].upgradeOutcome.complete(Boolean.TRUE);
                                }
                                ctx.fireUserEventTriggered(evt);
                            }

                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                if (msg instanceof FullHttpResponse r) {
                                    holder[0].upgradeOutcome.complete(new Resp(r.status().code(),
                                            r.headers().get("content-type"), ByteBufUtil.getBytes(r.content())));
                                }
                                ReferenceCountUtil.release(msg);
                            }

                            @Override
                            public void channelInactive(ChannelHandlerContext ctx) {
                                holder[0].upgradeOutcome.completeExceptionally(new IllegalStateException("connection closed"));
                            }
                        });
                    }
                });
        Channel ch = b.connect("127.0.0.1", port).sync().channel();
        PbsTestClient c = new PbsTestClient(ch);
        holder[0] = c;
        SslHandler sslHandler = ch.pipeline().get(SslHandler.class);
        sslHandler.handshakeFuture().sync();
        X509Certificate leaf = (X509Certificate) sslHandler.engine().getSession().getPeerCertificates()[0];
        String actual = ServerCertificate.fingerprint(leaf);
        if (fingerprint != null && !actual.equalsIgnoreCase(fingerprint)) {
            ch.close();
            throw new IllegalStateException("certificate fingerprint mismatch: " + actual + " != " + fingerprint);
        }
        return c;
    }

    /**
     * Sends the upgrade request ({@code uri} as given, e.g. {@code //api2/json/backup?...}).
     *
     * @return null on {@code 101} (HTTP/2 is ready), else the refusal
     */
    Resp upgrade(String uri, Map<String, String> headers) throws Exception {
        FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, uri, Unpooled.EMPTY_BUFFER);
        headers.forEach((k, v) -> req.headers().set(k, v));
        req.headers().set("host", "127.0.0.1");
        channel.writeAndFlush(req).sync();
        Object o = upgradeOutcome.get(TIMEOUT_S, TimeUnit.SECONDS);
        return o instanceof Resp r ? r : null;
    }

    /** Upgrade with a token header in the real client's space form; fails unless {@code 101}. */
    void upgradeOrFail(String path, String query, String token) throws Exception {
        Resp r = upgrade(path + "?" + query, Map.of("Authorization", "PBSAPIToken " + token,
                "Content-Type", "application/x-www-form-urlencoded", "User-Agent", "proxmox-backup-client/1.0"));
        if (r != null) {
            throw new AssertionError("upgrade refused: " + r);
        }
    }

    /** Starts an HTTP/2 request; the future completes with the full response. */
    CompletableFuture<Resp> request(String method, String pathAndQuery, String contentType, byte[] body) {
        CompletableFuture<Resp> f = new CompletableFuture<>();
        new Http2StreamChannelBootstrap(channel).handler(new ResponseHandler(f)).open().addListener(of -> {
            if (!of.isSuccess()) {
                f.completeExceptionally(of.cause());
                return;
            }
            Http2StreamChannel s = (Http2StreamChannel) of.getNow();
            boolean hasBody = body != null && body.length > 0;
            s.write(new DefaultHttp2HeadersFrame(headers(method, pathAndQuery, contentType), !hasBody));
            if (hasBody) {
                s.write(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(body), true));
            }
            s.flush();
        });
        return f;
    }

    /** Sends headers and {@code part} of a body without ending the stream (for disconnect tests). */
    void sendPartial(String method, String pathAndQuery, String contentType, byte[] part) throws Exception {
        Http2StreamChannel s = new Http2StreamChannelBootstrap(channel).handler(new ChannelInboundHandlerAdapter())
                .open().sync().getNow();
        s.write(new DefaultHttp2HeadersFrame(headers(method, pathAndQuery, contentType), false));
        s.writeAndFlush(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(part), false)).sync();
    }

    private static Http2Headers headers(String method, String pathAndQuery, String contentType) {
        Http2Headers h = new DefaultHttp2Headers().method(method).path(pathAndQuery).scheme("https")
                .authority("localhost:8007");
        h.set("user-agent", "proxmox-backup-client/1.0");
        if (contentType != null) {
            h.set("content-type", contentType);
        }
        return h;
    }

    /** {@link #request} and wait. */
    Resp call(String method, String pathAndQuery, String contentType, byte[] body) throws Exception {
        return request(method, pathAndQuery, contentType, body).get(TIMEOUT_S, TimeUnit.SECONDS);
    }

    /** A parameterless-body call as the real client makes it (form content type, empty body). */
    Resp call(String method, String pathAndQuery) throws Exception {
        return call(method, pathAndQuery, "application/x-www-form-urlencoded", null);
    }

    /** A JSON-body call. */
    Resp json(String method, String path, Object body) throws Exception {
        return call(method, path, "application/json", JSON.writeValueAsBytes(body));
    }

    /** A raw upload. */
    Resp upload(String pathAndQuery, byte[] body) throws Exception {
        return call("POST", pathAndQuery, "application/octet-stream", body);
    }

    /** The TCP channel. */
    Channel channel() {
        return channel;
    }

    /** True while the connection is open. */
    boolean isOpen() {
        return channel.isActive();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
    }

    /** Drops the connection abruptly (TCP reset: SO_LINGER 0), as a killed client would. */
    void abort() {
        channel.config().setOption(io.netty.channel.ChannelOption.SO_LINGER, 0);
        channel.close().syncUninterruptibly();
    }

    private static final class ClientCodec implements HttpClientUpgradeHandler.UpgradeCodec {
        private final String protocol;

        ClientCodec(String protocol) {
            this.protocol = protocol;
        }

        @Override
        public CharSequence protocol() {
            return protocol;
        }

        @Override
        public Collection<CharSequence> setUpgradeHeaders(ChannelHandlerContext ctx, HttpRequest upgradeRequest) {
            return List.of();
        }

        @Override
        public void upgradeTo(ChannelHandlerContext ctx, FullHttpResponse upgradeResponse) {
            var codec = Http2FrameCodecBuilder.forClient()
                    .initialSettings(Http2Settings.defaultSettings().initialWindowSize(Integer.MAX_VALUE - 1)
                            .maxFrameSize(4 * 1024 * 1024))
                    .build();
            ctx.pipeline().addAfter(ctx.name(), "h2-codec", codec);
            ctx.pipeline().addAfter("h2-codec", "h2-mux", new Http2MultiplexHandler(new ChannelInboundHandlerAdapter()));
        }
    }

    private static final class ResponseHandler extends ChannelInboundHandlerAdapter {
        private final CompletableFuture<Resp> future;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private int status;
        private String contentType;

        ResponseHandler(CompletableFuture<Resp> future) {
            this.future = future;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof Http2HeadersFrame h) {
                    if (h.headers().status() != null) {
                        status = Integer.parseInt(h.headers().status().toString());
                        CharSequence ct = h.headers().get("content-type");
                        contentType = ct == null ? null : ct.toString();
                    }
                    if (h.isEndStream()) {
                        done(ctx);
                    }
                } else if (msg instanceof Http2DataFrame d) {
                    byte[] b = ByteBufUtil.getBytes(d.content());
                    body.write(b, 0, b.length);
                    if (d.isEndStream()) {
                        done(ctx);
                    }
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        private void done(ChannelHandlerContext ctx) {
            future.complete(new Resp(status, contentType, body.toByteArray()));
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            future.completeExceptionally(new IllegalStateException("stream closed before the response ended"));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            future.completeExceptionally(cause);
            ctx.close();
        }
    }
}
