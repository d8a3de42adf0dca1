package org.jpbs.client.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientUpgradeHandler;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import java.util.Collection;
import java.util.List;

/**
 * The client side of the PBS upgrade ({@code docs/protocol.md#backup-upgrade}; {@code docs/protocol.md#transport}): asks for {@code Upgrade: <protocol>} with no extra
 * headers (no {@code HTTP2-Settings}: this is not h2c) and, on {@code 101}, installs an HTTP/2
 * client frame codec (initial stream window 2^31-2, max frame 4 MiB) plus a multiplexer, and
 * raises the connection receive window to 2^31-2 as well (else downloads would stall at
 * 64 KiB per round trip).
 */
final class PbsUpgradeCodec implements HttpClientUpgradeHandler.UpgradeCodec {
    /** Stream and connection window: 2^31-2 bytes. */
    static final int WINDOW = Integer.MAX_VALUE - 1;
    /** Largest HTTP/2 frame we accept: 4 MiB. */
    static final int MAX_FRAME = 4 * 1024 * 1024;
    static final String CODEC = "h2-codec";
    static final String MUX = "h2-mux";

    private final String protocol;

    PbsUpgradeCodec(String protocol) {
        this.protocol = protocol;
    }

    @Override
    public CharSequence protocol() {
        return protocol;
    }

    @Override
    public Collection<CharSequence> setUpgradeHeaders(ChannelHandlerContext ctx, HttpRequest upgradeRequest) {
        return List.of();
    }

    @Override
    public void upgradeTo(ChannelHandlerContext ctx, FullHttpResponse upgradeResponse) throws Exception {
        Http2FrameCodec codec = H2Codecs.client(Http2Settings.defaultSettings().initialWindowSize(WINDOW)
                .maxFrameSize(MAX_FRAME));
        ctx.pipeline().addAfter(ctx.name(), CODEC, codec);
        ctx.pipeline().addAfter(CODEC, MUX, new Http2MultiplexHandler(new ChannelInboundHandlerAdapter()));
        try {
            codec.connection().local().flowController().incrementWindowSize(codec.connection().connectionStream(),
                    WINDOW - Http2CodecUtil.DEFAULT_WINDOW_SIZE);
        } catch (Http2Exception e) {
            throw new IllegalStateException("cannot raise the HTTP/2 connection window: " + e.getMessage(), e);
        }
        ctx.channel().flush();
    }
}
