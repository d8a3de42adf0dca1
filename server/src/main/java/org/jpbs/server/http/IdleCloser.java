package org.jpbs.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Closes a connection that was idle (nothing read or written) for a while, but only if no
 * request is in progress: on HTTP/1.1 a request is in progress while reading is paused
 * ({@link Http1Handler} turns {@code autoRead} off while serving); on an upgraded HTTP/2
 * connection while any stream is open. See {@link ServerTimeouts}.
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
        Http2FrameCodec h2 = ctx.pipeline().get(Http2FrameCodec.class);
        boolean busy = h2 != null ? h2.connection().numActiveStreams() > 0 : !ctx.channel().config().isAutoRead();
        if (busy) {
            return;
        }
        LOG.log(Level.INFO, "closing idle " + what + " from " + ctx.channel().remoteAddress());
        ctx.close();
    }
}
