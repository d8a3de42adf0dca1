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
 * The per-connection pipeline: TLS (no ALPN, {@code docs/protocol.md#transport}) → HTTP/1.1
 * codec → {@link HttpServerUpgradeHandler} with a {@link PbsUpgradeCodec} for
 * {@code proxmox-backup-protocol-v1} and {@code proxmox-backup-reader-protocol-v1} →
 * aggregator → {@link Http1Handler} for REST, with an {@link IdleCloser} after TLS
 * ({@link ServerTimeouts}; an upgraded session replaces it with a {@link SessionWatchdog}); TCP
 * keepalive on every accepted connection ({@link #keepalive}); a last handler logs and closes on errors
 * (including garbage instead of HTTP/2 frames after the {@code 101}). All upgraded connections of
 * one server share one {@link UploadBudget} for the request bodies they hold.
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
    private final UploadBudget uploads = UploadBudget.fromSystemProperties();

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
        keepalive(ch, timeouts.tcpKeepalive());
        ChannelPipeline p = ch.pipeline();
        ch.config().setWriteBufferWaterMark(SessionCodec.WRITE_BUFFER); // whole HTTP/2 frames per write round
        p.addLast("tls", ssl.newHandler(ch.alloc()));
        p.addLast(IDLE, new IdleCloser(timeouts.http1Idle(), "HTTP/1.1 connection"));
        HttpServerCodec http = new HttpServerCodec();
        p.addLast("http", http);
        p.addLast("upgrade", new HttpServerUpgradeHandler(http, protocol -> {
            if (AsciiString.contentEqualsIgnoreCase(protocol, SessionFactory.BACKUP_PROTOCOL)) {
                return new PbsUpgradeCodec(SessionFactory.BACKUP_PROTOCOL, sessions, timeouts, uploads);
            }
            if (AsciiString.contentEqualsIgnoreCase(protocol, SessionFactory.READER_PROTOCOL)) {
                return new PbsUpgradeCodec(SessionFactory.READER_PROTOCOL, sessions, timeouts, uploads);
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

    /** The most request-body bytes the server's upgraded connections held at once so far ({@link UploadBudget#peak()}). */
    public long uploadPeakBytes() {
        return uploads.peak();
    }

    /** The server-wide budget for held request bodies, in bytes ({@link UploadBudget#high()}). */
    public long uploadBudgetBytes() {
        return uploads.high();
    }

    /** The HTTP/2 connection window announced to upgraded connections ({@link UploadBudget#connectionWindow()}). */
    public int uploadConnectionWindow() {
        return uploads.connectionWindow();
    }

    /**
     * Turns on TCP keepalive ({@code SO_KEEPALIVE}) with the given idle time, and where the
     * platform has them ({@code jdk.net.ExtendedSocketOptions}, Linux and others) the idle time,
     * probe interval and probe count ({@link ServerTimeouts#KEEPALIVE_INTERVAL},
     * {@link ServerTimeouts#KEEPALIVE_PROBES}); so the kernel drops a connection whose peer
     * vanished (host down, cable pulled) and the session's locks are released.
     */
    static void keepalive(SocketChannel ch, java.time.Duration idle) {
        try {
            ch.config().setKeepAlive(true);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, () -> "SO_KEEPALIVE not set: " + e);
            return;
        }
        if (!(ch instanceof io.netty.channel.socket.nio.NioSocketChannel)) {
            return;
        }
        int idleSeconds = (int) Math.min(Integer.MAX_VALUE, Math.max(1, idle.toSeconds()));
        int interval = (int) ServerTimeouts.KEEPALIVE_INTERVAL.toSeconds();
        try {
            ch.config().setOption(io.netty.channel.socket.nio.NioChannelOption.of(jdk.net.ExtendedSocketOptions.TCP_KEEPIDLE),
                    idleSeconds);
            ch.config().setOption(io.netty.channel.socket.nio.NioChannelOption.of(
                    jdk.net.ExtendedSocketOptions.TCP_KEEPINTERVAL), interval);
            ch.config().setOption(io.netty.channel.socket.nio.NioChannelOption.of(jdk.net.ExtendedSocketOptions.TCP_KEEPCOUNT),
                    ServerTimeouts.KEEPALIVE_PROBES);
        } catch (RuntimeException | LinkageError e) {
            LOG.log(Level.DEBUG, () -> "TCP keepalive options not set (platform default times apply): " + e);
        }
    }
}
