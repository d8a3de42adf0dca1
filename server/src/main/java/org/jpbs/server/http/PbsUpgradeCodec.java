package org.jpbs.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelOption;
import io.netty.util.AttributeKey;
import java.util.Collection;
import java.util.List;

/**
 * The PBS upgrade ({@code docs/protocol.md#backup-upgrade}, {@code docs/protocol.md#reader-session}; {@code docs/protocol.md#transport}): not h2c, so no {@code HTTP2-Settings} header and no stream 1 carrying the request.
 * {@link #prepareUpgradeResponse} opens the session through the {@link SessionFactory}; a
 * refusal is stored in the channel attribute {@link #UPGRADE_ERROR} and the request goes on to
 * the HTTP/1.1 handler, which answers with that error. {@link #upgradeTo} (after Netty wrote
 * {@code 101} with {@code connection: upgrade} and {@code upgrade: <protocol>}) replaces the
 * HTTP/1.1 handlers with an HTTP/2 server in prior-knowledge mode with the PBS server's
 * settings ({@code docs/protocol.md#backup-upgrade}): initial stream window 32 MiB, max frame 4 MiB, a connection WINDOW_UPDATE
 * to the connection window of the server's {@link UploadBudget} (32 MiB as PBS unless the budget
 * is below 256 MiB), and at most {@link #MAX_CONCURRENT_STREAMS} concurrent
 * streams; one {@link Http2StreamHandler} per stream, without the stream channel's automatic
 * flow control, all sharing one {@link InflightBytes} that withholds the flow-control credit of
 * received DATA while too much request data waits for processing (on this connection, or
 * on the whole server). The HTTP/1.1 idle
 * closer gives way to a {@link SessionWatchdog} (session idle and request stall limits).
 */
final class PbsUpgradeCodec implements HttpServerUpgradeHandler.UpgradeCodec {
    /** The refusal of the last upgrade attempt, picked up by {@link Http1Handler}. */
    static final AttributeKey<ApiException> UPGRADE_ERROR = AttributeKey.valueOf("jpbs.upgradeError");
    /** Initial stream window: 32 MiB, as the PBS server ({@code docs/protocol.md#backup-upgrade}); the connection window comes from {@link UploadBudget#connectionWindow()}. */
    static final int WINDOW = 32 * 1024 * 1024;
    /**
     * SETTINGS_MAX_CONCURRENT_STREAMS: 200, the default of the hyper HTTP/2 server that PBS uses
     * (the real client keeps far fewer requests in flight).
     */
    static final int MAX_CONCURRENT_STREAMS = 200;
    /** Max HTTP/2 frame size: 4 MiB. */
    static final int MAX_FRAME = 4 * 1024 * 1024;

    private final String protocol;
    private final SessionFactory sessions;
    private final ServerTimeouts timeouts;
    private final UploadBudget uploads;
    private Http2Service service;

    PbsUpgradeCodec(String protocol, SessionFactory sessions, ServerTimeouts timeouts, UploadBudget uploads) {
        this.protocol = protocol;
        this.sessions = sessions;
        this.timeouts = timeouts;
        this.uploads = uploads;
    }

    @Override
    public Collection<CharSequence> requiredUpgradeHeaders() {
        return List.of();
    }

    @Override
    public boolean prepareUpgradeResponse(ChannelHandlerContext ctx, FullHttpRequest request, HttpHeaders headers) {
        String uri = request.uri();
        if (UriPaths.tooLong(uri)) {
            ctx.channel().attr(UPGRADE_ERROR).set(new ApiException(414, ""));
            return false;
        }
        int q = uri.indexOf('?');
        String path = UriPaths.normalize(q < 0 ? uri : uri.substring(0, q));
        String query = q < 0 ? "" : uri.substring(q + 1);
        try {
            if (!request.method().equals(io.netty.handler.codec.http.HttpMethod.GET)) {
                throw ApiException.pathNotFound(path); // PBS registers the upgrade as the path's GET method only
            }
            if (request.protocolVersion().majorVersion() != 1) {
                throw ApiException.badRequest("unexpected http version '" + request.protocolVersion()
                        + "' (expected version < 2)");
            }
            Http2Service svc = sessions.open(protocol, path, query, request, ctx.channel());
            service = svc;
            // from here on the session holds its locks: whatever ends the connection ends the session
            ctx.channel().closeFuture().addListener(f -> svc.connectionClosed());
            return true;
        } catch (RuntimeException e) {
            ctx.channel().attr(UPGRADE_ERROR).set(ErrorMapper.map(e));
            return false;
        }
    }

    @Override
    public void upgradeTo(ChannelHandlerContext ctx, FullHttpRequest request) {
        Http2Service svc = service;
        InflightBytes inflight = new InflightBytes(ctx.channel(), uploads);
        ChannelPipeline p = ctx.pipeline();
        p.remove(ServerChannelInitializer.AGGREGATOR);
        p.remove(ServerChannelInitializer.HTTP1);
        SessionWatchdog watchdog = new SessionWatchdog(timeouts.sessionIdle(), timeouts.requestStall(),
                protocol.equals(SessionFactory.BACKUP_PROTOCOL) ? "backup session" : "reader session");
        p.replace(ServerChannelInitializer.IDLE, ServerChannelInitializer.IDLE, watchdog.raw());
        p.addFirst("h2-tcp", watchdog.tcp());
        Http2FrameCodec codec = SessionCodec.build(Http2Settings.defaultSettings().initialWindowSize(WINDOW)
                .maxFrameSize(MAX_FRAME).maxConcurrentStreams(MAX_CONCURRENT_STREAMS), uploads.connectionWindow());
        p.addAfter(ctx.name(), "h2-codec", codec);
        watchdog.watch(codec.connection());
        p.addAfter("h2-codec", "h2-watch", watchdog.frames());
        p.addAfter("h2-watch", "h2-mux", new Http2MultiplexHandler(new ChannelInitializer<Http2StreamChannel>() {
            @Override
            protected void initChannel(Http2StreamChannel ch) {
                ch.config().setOption(Http2StreamChannelOption.AUTO_STREAM_FLOW_CONTROL, false);
                ch.pipeline().addLast(new Http2StreamHandler(svc, inflight));
            }
        }));
        try {
            int increment = uploads.connectionWindow() - Http2CodecUtil.DEFAULT_WINDOW_SIZE;
            codec.connection().local().flowController()
                    .incrementWindowSize(codec.connection().connectionStream(), increment);
            ctx.channel().flush();
        } catch (Http2Exception e) {
            ctx.fireExceptionCaught(e);
        }
    }
}
