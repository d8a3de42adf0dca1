package org.jpbs.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jpbs.server.auth.Authenticator;
import org.jpbs.server.http.DefaultRestHandler;
import org.jpbs.server.http.RestHandler;
import org.jpbs.server.http.ServerChannelInitializer;
import org.jpbs.server.tls.ServerCertificate;

/**
 * The jpbs server: HTTPS on one port ({@code docs/protocol.md#transport}), the REST API over
 * HTTP/1.1 and the backup/reader protocols over HTTP/2 after the PBS upgrade ({@code docs/protocol.md#backup-session}, {@code docs/protocol.md#reader-session}).
 * Start with {@link #start(ServerConfig, Authenticator)}, stop with {@link #close()}.
 */
public final class JpbsServer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(JpbsServer.class.getName());

    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final ExecutorService virtualThreads;
    private final ExecutorService chunkWorkers;
    private final Channel serverChannel;
    private final ChannelGroup connections;
    private final ServerContext context;
    private final String fingerprint;
    private final AtomicBoolean closed = new AtomicBoolean();
    private ServerChannelInitializer channels;
    private org.jpbs.server.rrd.RrdSampler sampler;
    private volatile org.jpbs.server.metrics.MetricPusher metricPusher; // metricserver.cfg push ({@code docs/metrics.md})

    private JpbsServer(EventLoopGroup boss, EventLoopGroup workers, ExecutorService virtualThreads,
                       ExecutorService chunkWorkers, Channel serverChannel, ChannelGroup connections,
                       ServerContext context, String fingerprint) {
        this.connections = connections;
        this.boss = boss;
        this.workers = workers;
        this.virtualThreads = virtualThreads;
        this.chunkWorkers = chunkWorkers;
        this.serverChannel = serverChannel;
        this.context = context;
        this.fingerprint = fingerprint;
    }

    /** Starts with the minimal REST API ({@link DefaultRestHandler}). See {@link #start(ServerConfig, Authenticator, RestHandler)}. */
    public static JpbsServer start(ServerConfig config, Authenticator auth) throws IOException {
        return start(config, auth, new DefaultRestHandler(auth));
    }

    /**
     * Starts with the services of {@code rest} if it is a {@link org.jpbs.server.api.JpbsRestHandler},
     * else with {@link ServerServices#open(ServerConfig)}. See
     * {@link #start(ServerConfig, Authenticator, RestHandler, ServerServices)}.
     */
    public static JpbsServer start(ServerConfig config, Authenticator auth, RestHandler rest) throws IOException {
        ServerServices services = rest instanceof org.jpbs.server.api.JpbsRestHandler j ? j.services()
                : ServerServices.open(config);
        return start(config, auth, rest, services);
    }

    /**
     * Loads or creates the TLS certificate in the config directory and binds the port. The
     * datastores are those of {@code services} ({@code <config>/datastore.cfg} and the
     * command-line ones), looked up through its cache on every session and request.
     *
     * @param rest     serves every HTTP/1.1 API request that is not a backup/reader upgrade; the web
     *                 interface ({@link org.jpbs.server.webui.WebUiHandler}) answers the other paths
     * @param services datastores, tasks and the job hook (shared with {@code rest})
     * @throws IOException if the certificate cannot be read or created, or the port cannot be bound
     */
    public static JpbsServer start(ServerConfig config, Authenticator auth, RestHandler rest, ServerServices services)
            throws IOException {
        return start(config, auth, rest, services, org.jpbs.server.http.ServerTimeouts.fromSystemProperties());
    }

    /**
     * As {@link #start(ServerConfig, Authenticator, RestHandler, ServerServices)} with explicit idle timeouts.
     *
     * @param timeouts idle timeouts of HTTP/1.1 connections and backup/reader sessions
     * @throws IOException if the certificate cannot be read or created, or the port cannot be bound
     */
    public static JpbsServer start(ServerConfig config, Authenticator auth, RestHandler rest, ServerServices services,
                                   org.jpbs.server.http.ServerTimeouts timeouts) throws IOException {
        ServerCertificate cert = ServerCertificate.loadOrCreate(config.configDir());
        int cpus = Runtime.getRuntime().availableProcessors();
        ExecutorService virtualThreads = Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("jpbs-call-", 0).factory());
        ExecutorService chunkWorkers = services.budget().lane("chunk uploads", services.budget().limit());
        ServerContext ctx = new ServerContext(services, auth, virtualThreads, chunkWorkers);
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(Math.max(2, cpus), NioIoHandler.newFactory());
        ChannelGroup connections = new DefaultChannelGroup("jpbs-connections", GlobalEventExecutor.INSTANCE);
        ServerChannelInitializer init = new ServerChannelInitializer(cert.serverContext(), new ProtocolSessions(ctx),
                org.jpbs.server.webui.WebUiHandler.wrap(rest), virtualThreads, timeouts);
        InetSocketAddress addr = config.bind() == null || config.bind().isEmpty()
                ? new InetSocketAddress(config.port()) : new InetSocketAddress(config.bind(), config.port());
        try {
            ServerBootstrap b = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            connections.add(ch); // so close() can close every connection before the executors stop
                            ch.pipeline().addLast(init);
                        }
                    });
            if (addr.isUnresolved()) {
                throw new java.nio.channels.UnresolvedAddressException();
            }
            Channel ch = b.bind(addr).syncUninterruptibly().channel();
            JpbsServer s = new JpbsServer(boss, workers, virtualThreads, chunkWorkers, ch, connections, ctx,
                    cert.fingerprint());
            s.channels = init;
            // usage and I/O every minute into <config>/rrdb (charts, estimated full date; docs/ui.md)
            s.sampler = org.jpbs.server.rrd.RrdSampler.start(org.jpbs.server.rrd.RrdStore.forConfigDir(config.configDir()),
                    services.datastores(), config.configDir());
            s.metricPusher = new org.jpbs.server.metrics.MetricPusher(config.configDir(), services.tasks().node(),
                    () -> org.jpbs.server.metrics.DatastoreUsage.of(services.datastores()));
            LOG.log(Level.INFO, "jpbs server listening on " + ch.localAddress() + ", certificate fingerprint "
                    + s.fingerprint + ", datastore config " + services.datastores().store().file());
            return s;
        } catch (RuntimeException e) {
            boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            workers.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            virtualThreads.shutdownNow();
            chunkWorkers.shutdownNow();
            String where = config.bind() == null || config.bind().isEmpty()
                    ? "0.0.0.0:" + config.port() + " (all addresses)" : config.bind() + ":" + config.port();
            if (e instanceof java.nio.channels.UnresolvedAddressException) {
                throw new IOException("cannot listen on " + where + ": unknown host '" + config.bind() + "'", e);
            }
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            if (cause instanceof java.net.BindException || cause instanceof IOException) {
                String why = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
                if (why.toLowerCase(java.util.Locale.ROOT).contains("address already in use")) {
                    why = "address already in use (another server on port " + config.port() + "?)";
                }
                throw new IOException("cannot listen on " + where + ": " + why, cause);
            }
            throw e;
        }
    }

    /** Memory of upload bodies: the budget, the most held at once and the connection window ({@code docs/network-client.md}, "Server memory"). */
    public ServerChannelInitializer channels() {
        return channels;
    }

    /** The bound TCP port (the real one when the config asked for port 0). */
    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** The bound address. */
    public InetSocketAddress address() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** SHA-256 fingerprint of the server certificate, {@code ab:cd:...} (32 lower-case hex pairs). */
    public String fingerprint() {
        return fingerprint;
    }

    /** The datastores, tasks and job hook of this server. */
    public ServerServices services() {
        return context.services();
    }

    /** Number of live backup and reader sessions (unfinished backups count until their cleanup is done). */
    public int activeSessions() {
        return context.activeSessions();
    }

    /**
     * Stops the server, in an order in which no task meets a stopped executor: stops accepting,
     * closes every connection (unfinished backups are removed), lets the event loops run the
     * connections' close handlers, waits for the request and cleanup threads and then the chunk
     * workers to finish, and finally stops the event loops; waits up to about 10 seconds in all.
     * A second call does nothing.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        context.services().scheduler().close(); // no new scheduled task; running ones end with the executors
        if (metricPusher != null) {
            metricPusher.close();
        }
        serverChannel.close().syncUninterruptibly();
        if (sampler != null) {
            sampler.close();
        }
        connections.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        drainEventLoops();
        virtualThreads.shutdown();
        awaitTermination(virtualThreads);
        chunkWorkers.shutdown();
        awaitTermination(chunkWorkers);
        drainEventLoops(); // writes queued by the last cleanups
        workers.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
        boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        LOG.log(Level.DEBUG, "jpbs server on port " + port() + " stopped; datastore.cfg was read "
                + context.services().datastores().configReads() + " times");
    }

    /** Runs an empty task on every event loop and waits, so everything queued before it has run. */
    private void drainEventLoops() {
        for (EventExecutor loop : workers) {
            if (!loop.isShuttingDown()) {
                loop.submit(() -> { }).awaitUninterruptibly(2, TimeUnit.SECONDS);
            }
        }
    }

    private static void awaitTermination(ExecutorService executor) {
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
