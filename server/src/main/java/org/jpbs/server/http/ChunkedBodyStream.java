package org.jpbs.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The body of a streamed HTTP/1.1 response ({@link RestResponse#stream()}): bytes are collected
 * in a 64 KiB buffer and sent as one chunk of the chunked transfer encoding when it is full.
 * Before a chunk is sent the previous one must have been written to the socket, so at most two
 * chunks per connection are in memory, however long the body and however slow the client.
 * Used from a worker thread, never the event loop (it blocks). Not thread-safe.
 */
final class ChunkedBodyStream extends OutputStream {
    static final int CHUNK = 64 * 1024;

    private final ChannelHandlerContext ctx;
    private ByteBuf buf;
    private ChannelFuture inFlight;
    private boolean finished;

    ChunkedBodyStream(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.buf = ctx.alloc().buffer(CHUNK);
    }

    @Override
    public void write(int b) throws IOException {
        if (!buf.isWritable()) {
            sendChunk();
        }
        buf.writeByte(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            if (!buf.isWritable()) {
                sendChunk();
            }
            int n = Math.min(len, buf.writableBytes());
            buf.writeBytes(b, off, n);
            off += n;
            len -= n;
        }
    }

    private void awaitInFlight() throws IOException {
        if (inFlight != null) {
            inFlight.awaitUninterruptibly();
            if (!inFlight.isSuccess()) {
                throw new IOException("client connection closed while streaming the response", inFlight.cause());
            }
            inFlight = null;
        }
    }

    private void sendChunk() throws IOException {
        awaitInFlight();
        if (!ctx.channel().isActive()) {
            throw new IOException("client connection closed while streaming the response");
        }
        ByteBuf full = buf;
        buf = ctx.alloc().buffer(CHUNK);
        inFlight = ctx.writeAndFlush(new DefaultHttpContent(full));
    }

    /** Sends what is buffered and the last (empty) chunk, and waits until it is written. */
    void finish() throws IOException {
        if (finished) {
            return;
        }
        finished = true;
        awaitInFlight();
        ByteBuf rest = buf;
        buf = null;
        ChannelFuture f = ctx.writeAndFlush(rest.isReadable() ? new io.netty.handler.codec.http.DefaultLastHttpContent(rest)
                : releaseAndEmpty(rest));
        f.awaitUninterruptibly();
        if (!f.isSuccess()) {
            throw new IOException("client connection closed while streaming the response", f.cause());
        }
    }

    private static LastHttpContent releaseAndEmpty(ByteBuf b) {
        b.release();
        return LastHttpContent.EMPTY_LAST_CONTENT;
    }

    /** Frees the buffer after a failure (nothing more is sent). */
    void discard() {
        finished = true;
        if (buf != null) {
            buf.release();
            buf = null;
        }
    }

    @Override
    public void flush() {
        // chunks go out when full; a flush alone does not send a small chunk
    }
}
