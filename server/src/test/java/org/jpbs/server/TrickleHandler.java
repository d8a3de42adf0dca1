package org.jpbs.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * A client-side handler put first in the pipeline (so it sees the encrypted bytes as they go
 * to the socket): sends at most {@code slice} bytes every {@code tickMillis}, and after
 * {@code budget} bytes nothing more at all, as a client that froze in the middle of a write.
 */
final class TrickleHandler extends ChannelOutboundHandlerAdapter {
    private record Pending(ByteBuf buf, ChannelPromise promise) {}

    private final int slice;
    private final long tickMillis;
    private long budget;
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private boolean scheduled;

    TrickleHandler(int slice, long tickMillis, long budget) {
        this.slice = slice;
        this.tickMillis = tickMillis;
        this.budget = budget;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof ByteBuf b)) {
            ctx.write(msg, promise);
            return;
        }
        queue.add(new Pending(b, promise));
        schedule();
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        // the pump flushes what it sends
    }

    private void schedule() {
        if (!scheduled && !queue.isEmpty() && budget > 0) {
            scheduled = true;
            ctx.executor().schedule(this::pump, tickMillis, TimeUnit.MILLISECONDS);
        }
    }

    private void pump() {
        scheduled = false;
        if (!ctx.channel().isActive()) {
            return;
        }
        int left = slice;
        while (left > 0 && budget > 0 && !queue.isEmpty()) {
            Pending p = queue.peek();
            int n = (int) Math.min(Math.min(left, budget), p.buf().readableBytes());
            ctx.write(p.buf().readRetainedSlice(n));
            left -= n;
            budget -= n;
            if (!p.buf().isReadable()) {
                queue.poll();
                p.buf().release();
                p.promise().trySuccess();
            }
        }
        ctx.flush();
        schedule();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        for (Pending p; (p = queue.poll()) != null; ) {
            ReferenceCountUtil.release(p.buf());
            p.promise().tryFailure(new java.io.IOException("connection closed"));
        }
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        handlerRemoved(ctx);
        ctx.close(promise);
    }
}
