package org.jpbs.client.http;

import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.WeightedFairQueueByteDistributor;

/**
 * The client's HTTP/2 frame codec, set up for bulk transfers (docs/network-client.md, "session
 * 7"). Netty's HTTP/2 flow controller writes, per round, only what the channel accepts before it
 * turns unwritable (64 KiB by default) and shares that among all streams with data in portions
 * of about 1 KiB: 16 chunk uploads in flight left as thousands of DATA frames of a few KiB per
 * chunk, each a trip through both sides' HTTP/2 and stream-channel code. With a 4 MiB write
 * buffer ({@link #WRITE_BUFFER}, set on the connection) and a 1 MiB portion per stream
 * ({@link #QUANTUM}), a chunk leaves in one to four frames.
 */
final class H2Codecs extends Http2FrameCodecBuilder {
    /** Bytes a stream may write before the byte distributor moves on to the next: 1 MiB. */
    static final int QUANTUM = 1 << 20;
    /** The connection's write buffer marks: writable again below 2 MiB, unwritable above 4 MiB. */
    static final WriteBufferWaterMark WRITE_BUFFER = new WriteBufferWaterMark(2 << 20, 4 << 20);

    private H2Codecs() {
        gracefulShutdownTimeoutMillis(0); // as Http2FrameCodecBuilder.forClient(); client or server comes from the connection
    }

    /** A client codec announcing {@code settings}. */
    static Http2FrameCodec client(Http2Settings settings) {
        H2Codecs b = new H2Codecs();
        Http2Connection c = new DefaultHttp2Connection(false);
        WeightedFairQueueByteDistributor d = new WeightedFairQueueByteDistributor(c);
        d.allocationQuantum(QUANTUM);
        c.remote().flowController(new DefaultHttp2RemoteFlowController(c, d));
        b.connection(c);
        b.initialSettings(settings);
        return b.build();
    }
}
