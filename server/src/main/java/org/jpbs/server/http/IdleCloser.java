package org.jpbs.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Closes an HTTP/1.1 connection that was idle (nothing read or written) for a while, but only
 * if no request is being served: that is while reading is paused ({@link Http1Handler} turns
 * {@code autoRead} off while serving). A client stalled in the middle of a request is not
 * served yet, so it is closed. An upgraded session replaces this handler with a
 * {@link SessionWatchdog}. See {@link ServerTimeouts}.
 */
final class IdleCloser extends IdleStateHandler {
    private static final System.Logger LOG = System.getLogger(IdleCloser.class.getName());
    private final String what;

    /**
     * @param idle how long nothing may happen
     * @param what for the log, e.g. {@code "HTTP/1.1 connection"}
     */
    IdleCloser(Duration idle, String what) {
        super(0, 0, idle.toMillis(), TimeUnit.MILLISECONDS);
        this.what = what;
    }

    @Override
    protected void channelIdle(ChannelHandlerContext ctx, IdleStateEvent evt) {
        if (!ctx.channel().config().isAutoRead()) {
            return;
        }
        LOG.log(Level.INFO, "closing idle " + what + " from " + ctx.channel().remoteAddress());
        ctx.close();
    }
}
