package org.jpbs.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jpbs.client.http.H2Session;
import org.jpbs.client.http.HttpStatusException;
import org.jpbs.client.http.HttpsConnection;
import org.jpbs.client.http.TlsTrust;

/**
 * The raw protocol client of the server tests: the client module's own connection
 * ({@link HttpsConnection}: TLS with the server's fingerprint pinned, the HTTP/1.1 {@code GET}
 * with {@code Upgrade: proxmox-backup-protocol-v1} and the one PBS upgrade codec) and session
 * ({@link H2Session}: one HTTP/2 stream per request), so the server is tested against exactly
 * what the client speaks. What a protocol test needs beyond that: any request path and headers,
 * a refused upgrade as a response, a body sent only in part, an abrupt reset, and the Netty
 * channel itself (to slow it down, stop reading, or send raw frames).
 */
final class PbsTestClient implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String BACKUP = "proxmox-backup-protocol-v1";
    static final String READER = "proxmox-backup-reader-protocol-v1";
    private static final long TIMEOUT_S = 120;

    /** A response: status, content type, body. */
    record Resp(int status, String contentType, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (java.io.IOException e) {
                throw new AssertionError("not JSON: " + text(), e);
            }
        }

        JsonNode data() {
            return json().get("data");
        }

        @Override
        public String toString() {
            return status + " " + (body.length > 300 ? "<" + body.length + " bytes>" : text());
        }
    }

    private final HttpsConnection connection;
    private final String protocol;
    private H2Session session;

    private PbsTestClient(HttpsConnection connection, String protocol) {
        this.connection = connection;
        this.protocol = protocol;
    }

    /**
     * Connects, completes the TLS handshake and checks the server certificate's fingerprint.
     *
     * @param protocol the upgrade protocol this connection will ask for
     */
    static PbsTestClient connect(int port, String fingerprint, String protocol) throws Exception {
        return new PbsTestClient(HttpsConnection.connect("127.0.0.1", port, TlsTrust.pinned(fingerprint)), protocol);
    }

    /**
     * Sends the upgrade request ({@code uri} as given, e.g. {@code //api2/json/backup?...}).
     *
     * @return null on {@code 101} (HTTP/2 is ready), else the refusal (the connection is then closed)
     */
    Resp upgrade(String uri, Map<String, String> headers) throws Exception {
        try {
            session = connection.upgrade(uri, protocol, headers);
            return null;
        } catch (HttpStatusException e) {
            return new Resp(e.status(), null, e.serverMessage().getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Upgrade with a token header in the real client's space form; fails unless {@code 101}. */
    void upgradeOrFail(String path, String query, String token) throws Exception {
        Resp r = upgrade(path + "?" + query, Map.of("Authorization", "PBSAPIToken " + token,
                "Content-Type", "application/x-www-form-urlencoded", "User-Agent", "proxmox-backup-client/1.0"));
        if (r != null) {
            throw new AssertionError("upgrade refused: " + r);
        }
    }

    private H2Session session() {
        if (session == null) {
            throw new IllegalStateException("the connection was not upgraded");
        }
        return session;
    }

    /** Starts an HTTP/2 request; the future completes with the full response. */
    CompletableFuture<Resp> request(String method, String pathAndQuery, String contentType, byte[] body) {
        return session().call(method, pathAndQuery, "", contentType, body)
                .thenApply(r -> new Resp(r.status(), r.contentType(), r.body()));
    }

    /** Sends headers and {@code part} of a body without ending the stream (for disconnect tests). */
    void sendPartial(String method, String pathAndQuery, String contentType, byte[] part) throws Exception {
        Http2StreamChannel s = new Http2StreamChannelBootstrap(channel()).handler(new ChannelInboundHandlerAdapter())
                .open().sync().getNow();
        Http2Headers h = new DefaultHttp2Headers().method(method).path(pathAndQuery).scheme("https")
                .authority(session().authority());
        if (contentType != null) {
            h.set("content-type", contentType);
        }
        s.write(new DefaultHttp2HeadersFrame(h, false));
        s.writeAndFlush(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(part), false)).sync();
    }

    /** {@link #request} and wait. */
    Resp call(String method, String pathAndQuery, String contentType, byte[] body) throws Exception {
        return request(method, pathAndQuery, contentType, body).get(TIMEOUT_S, TimeUnit.SECONDS);
    }

    /** A parameterless-body call as the real client makes it (form content type, empty body). */
    Resp call(String method, String pathAndQuery) throws Exception {
        return call(method, pathAndQuery, "application/x-www-form-urlencoded", null);
    }

    /** A JSON-body call. */
    Resp json(String method, String path, Object body) throws Exception {
        return call(method, path, "application/json", JSON.writeValueAsBytes(body));
    }

    /** A raw upload. */
    Resp upload(String pathAndQuery, byte[] body) throws Exception {
        return call("POST", pathAndQuery, "application/octet-stream", body);
    }

    /** The upgraded connection's channel (its pipeline holds the HTTP/2 frame codec and multiplexer). */
    Channel channel() {
        return session().channel();
    }

    /** True while the connection is open. */
    boolean isOpen() {
        return session != null ? session.isOpen() : connection.isOpen();
    }

    @Override
    public void close() {
        if (session != null) {
            session.close();
        } else {
            connection.close();
        }
    }

    /** Drops the connection abruptly (TCP reset: SO_LINGER 0), as a killed client would. */
    void abort() {
        channel().config().setOption(io.netty.channel.ChannelOption.SO_LINGER, 0);
        channel().close().syncUninterruptibly();
    }
}
