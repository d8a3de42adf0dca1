package org.jpbs.client.http;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The process-wide Netty event loops of the client: daemon threads (so they never keep the JVM
 * alive), created on first use, between 2 and 8 threads. One connection always runs on one
 * loop; more loops serve several connections (e.g. parallel sessions of a hypervisor).
 */
final class EventLoops {
    private static volatile EventLoopGroup group;

    private EventLoops() {}

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
