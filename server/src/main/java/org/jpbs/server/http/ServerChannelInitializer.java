package org.jpbs.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.util.AsciiString;
import java.lang.System.Logger.Level;
import java.util.concurrent.Executor;

/**
 * The per-connection pipeline: TLS (no ALPN, spec {@code pbs-protocol.md} §1) → HTTP/1.1
 * codec → {@link HttpServerUpgradeHandler} with a {@link PbsUpgradeCodec} for
 * {@code proxmox-backup-protocol-v1} and {@code proxmox-backup-reader-protocol-v1} →
 * aggregator → {@link Http1Handler} for REST, with an {@link IdleCloser} after TLS
 * ({@link ServerTimeouts}); a last handler logs and closes on errors
 * (including garbage instead of HTTP/2 frames after the {@code 101}).
 */
public final class ServerChannelInitializer extends ChannelInitializer<SocketChannel> {
    static final String AGGREGATOR = "aggregator";
    static final String HTTP1 = "http1";
    static final String IDLE = "idle";
    /** Largest REST request body: 16 MiB plus room for headers of an uploaded blob. */
    static final int REST_MAX_BODY = 16 * 1024 * 1024 + 64 * 1024;
    private static final System.Logger LOG = System.getLogger(ServerChannelInitializer.class.getName());

    private final SslContext ssl;
    private final SessionFactory sessions;
    private final RestHandler rest;
    private final Executor workers;
    private final ServerTimeouts timeouts;

    /**
     * @param ssl      server TLS context
     * @param sessions opens backup/reader sessions for upgrade requests
     * @param rest     serves all other requests
     * @param workers  executor for REST calls (not the event loop)
     * @param timeouts idle timeouts of HTTP/1.1 connections and of upgraded sessions
     */
    public ServerChannelInitializer(SslContext ssl, SessionFactory sessions, RestHandler rest, Executor workers,
                                    ServerTimeouts timeouts) {
        this.ssl = ssl;
        this.sessions = sessions;
        this.rest = rest;
        this.workers = workers;
        this.timeouts = timeouts;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        ChannelPipeline p = ch.pipeline();
        p.addLast("tls", ssl.newHandler(ch.alloc()));
        p.addLast(IDLE, new IdleCloser(timeouts.http1Idle(), "HTTP/1.1 connection"));
        HttpServerCodec http = new HttpServerCodec();
        p.addLast("http", http);
        p.addLast("upgrade", new HttpServerUpgradeHandler(http, protocol -> {
            if (AsciiString.contentEqualsIgnoreCase(protocol, SessionFactory.BACKUP_PROTOCOL)) {
                return new PbsUpgradeCodec(SessionFactory.BACKUP_PROTOCOL, sessions, timeouts.sessionIdle());
            }
            if (AsciiString.contentEqualsIgnoreCase(protocol, SessionFactory.READER_PROTOCOL)) {
                return new PbsUpgradeCodec(SessionFactory.READER_PROTOCOL, sessions, timeouts.sessionIdle());
            }
            return null;
        }, 64 * 1024));
        p.addLast(AGGREGATOR, new HttpObjectAggregator(REST_MAX_BODY));
        p.addLast(HTTP1, new Http1Handler(rest, workers));
        p.addLast("errors", new ChannelInboundHandlerAdapter() {
            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                LOG.log(Level.DEBUG, () -> "closing connection from " + ctx.channel().remoteAddress() + ": " + cause);
                ctx.close();
            }
        });
    }
}
