package org.jpbs.server.http;

import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2LocalFlowController;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.DefaultHttp2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.WeightedFairQueueByteDistributor;

/**
 * The HTTP/2 frame codec of an upgraded session, whose responses leave in whole frames
 * (docs/network-client.md, "session 7"): Netty's flow controller writes per round only what the
 * connection accepts before turning unwritable (64 KiB by default) and its byte distributor
 * shares that among all streams with data in portions of about 1 KiB, so 16 chunk downloads in
 * flight left as thousands of small DATA frames per chunk, each a trip through both sides'
 * HTTP/2 and stream-channel code. Every accepted connection gets a 4 MiB write buffer
 * ({@link #WRITE_BUFFER}) and a stream may write {@link #QUANTUM} before the next one.
 *
 * <p>The connection's receive window is capped ({@link CappedWindow}): Netty's frame codec
 * widens a server's connection window on its own to twice the announced stream window (64 MiB
 * for PBS's 32 MiB), which would let every client send that much whatever credit
 * {@link InflightBytes} withholds.
 */
final class SessionCodec extends Http2FrameCodecBuilder {
    /** Bytes a stream may write before the byte distributor moves on to the next: 1 MiB. */
    static final int QUANTUM = 1 << 20;
    /** Write buffer marks of every accepted connection: writable again below 2 MiB, unwritable above 4 MiB. */
    static final WriteBufferWaterMark WRITE_BUFFER = new WriteBufferWaterMark(2 << 20, 4 << 20);

    private SessionCodec() {
        gracefulShutdownTimeoutMillis(0); // as Http2FrameCodecBuilder.forServer(); server or client comes from the connection
    }

    /** A server codec announcing {@code settings}, whose connection window never grows beyond {@code connectionWindow}. */
    static Http2FrameCodec build(Http2Settings settings, int connectionWindow) {
        SessionCodec b = new SessionCodec();
        Http2Connection c = new DefaultHttp2Connection(true);
        c.local().flowController(new CappedWindow(c, connectionWindow));
        WeightedFairQueueByteDistributor d = new WeightedFairQueueByteDistributor(c);
        d.allocationQuantum(QUANTUM);
        c.remote().flowController(new DefaultHttp2RemoteFlowController(c, d));
        b.connection(c);
        b.initialSettings(settings);
        return b.build();
    }

    /** The local flow controller whose connection window stays at most {@code cap} bytes. */
    static final class CappedWindow extends DefaultHttp2LocalFlowController {
        private final int cap;

        CappedWindow(Http2Connection connection, int cap) {
            super(connection);
            this.cap = cap;
        }

        @Override
        public void incrementWindowSize(Http2Stream stream, int delta) throws Http2Exception {
            int d = delta;
            if (stream.id() == Http2CodecUtil.CONNECTION_STREAM_ID) {
                d = Math.min(delta, cap - initialWindowSize(stream));
                if (d <= 0) {
                    return;
                }
            }
            super.incrementWindowSize(stream, d);
        }
    }
}
