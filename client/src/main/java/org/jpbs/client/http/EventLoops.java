package org.jpbs.client.http;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The process-wide Netty event loops of the client: daemon threads (so they never keep the JVM
 * alive), created on first use, between 2 and 8 threads. One connection always runs on one
 * loop; more loops serve several connections (e.g. parallel sessions of a hypervisor).
 *
 * <p>A command line process calls {@link #shutdown()} before {@code System.exit}: the JVM's exit
 * waits up to 300 ms (in 10 ms steps) for threads that are inside a native call, and an idle event
 * loop sits in {@code epoll_wait}; every network command paid that at its end.
 */
public final class EventLoops {
    private static volatile EventLoopGroup group;

    private EventLoops() {}

    /**
     * Stops the event loops, if any were started, and waits (at most a second) until their
     * threads have ended. Connections still open are closed. For the end of a process only.
     */
    public static void shutdown() {
        EventLoopGroup g;
        synchronized (EventLoops.class) {
            g = group;
            group = null;
        }
        if (g != null) {
            g.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(1, TimeUnit.SECONDS);
        }
    }

    static EventLoopGroup group() {
        EventLoopGroup g = group;
        if (g == null) {
            synchronized (EventLoops.class) {
                g = group;
                if (g == null) {
                    int n = Math.max(2, Math.min(8, Runtime.getRuntime().availableProcessors()));
                    g = new MultiThreadIoEventLoopGroup(n, new DefaultThreadFactory("jpbs-net", true),
                            NioIoHandler.newFactory());
                    group = g;
                }
            }
        }
        return g;
    }
}
