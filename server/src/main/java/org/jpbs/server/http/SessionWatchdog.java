package org.jpbs.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.concurrent.ScheduledFuture;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Bounds how long an upgraded backup or reader session may sit without progress
 * ({@link ServerTimeouts#sessionIdle()}, {@link ServerTimeouts#requestStall()}; design note
 * {@code docs/design.md}, "Server limits"). Progress means bytes of requests received and
 * bytes of responses sent, not traffic as such: PINGs, SETTINGS and a stream that was opened
 * and then left silent do not count.
 *
 * <p>Three handlers share one state, all on the connection's event loop:
 * <ul>
 *   <li>{@link #tcp()} sits first in the pipeline, before TLS, and sees the encrypted bytes:
 *       bytes that arrive count for the request body being received (see below), or, while
 *       they are only part of a TLS record and no body is known to be coming, as activity of
 *       the session (a request may be starting); record-sized writes that reach the socket
 *       count as response progress. TLS delivers a record (up to 16 KiB) only when it is
 *       complete, so a slow client would otherwise show no progress for a while. A complete
 *       record that holds only PINGs or other control frames is no progress.</li>
 *   <li>{@link #raw()} sits right after TLS, before the HTTP/2 codec. It follows the frame
 *       boundaries of the plain-text byte stream (preface, then 9-byte frame headers and
 *       payloads), so it knows which stream's body is coming in: the stream of the DATA frame
 *       in progress, or of the last HEADERS or DATA frame if that did not end its stream and no
 *       other frame followed. Bytes arriving then count for that stream as they arrive, not only once the
 *       codec has the whole frame (frames are up to 4 MiB: a slow client's chunk may take
 *       minutes). An idle connection is closed here (below the codec, so no graceful HTTP/2
 *       shutdown waits for open streams), a stalled one below TLS.</li>
 *   <li>{@link #frames()} sits between the codec and the stream multiplexer: it sees each
 *       stream's request start and end and the response the server writes.</li>
 * </ul>
 *
 * <p>Rules, checked periodically: a request whose body has not ended and of which no byte
 * arrived for the stall time closes the connection (while the server keeps the client from
 * sending, its flow-control window of the stream or connection nearly used up because
 * {@link InflightBytes} withholds credit, the clock stands still); so does a response of which nothing
 * could be sent for the stall time. The connection is idle when no request or response made
 * progress for the idle time and the server is not busy (a request complete but not yet
 * answered, or a response still being sent); an idle connection is closed whatever streams are
 * open. Closing ends the session, which releases its locks ({@link Http2Service#connectionClosed()}).
 */
final class SessionWatchdog {
    private static final System.Logger LOG = System.getLogger(SessionWatchdog.class.getName());
    /** Length of the client connection preface (RFC 9113 §3.4). */
    private static final int PREFACE = 24;
    /** Encrypted writes up to this size (TLS records of PING/SETTINGS acks, WINDOW_UPDATEs) are not response progress. */
    private static final int SMALL_WRITE = 100;
    /** A receive window below this (one default-sized frame) keeps the client from sending: the server is the bottleneck. */
    private static final int SMALL_WINDOW = 16 * 1024;

    private final String what;
    private final long idleNanos;
    private final long stallNanos;
    private final long periodNanos;
    private final Map<Integer, StreamState> streams = new HashMap<>();
    private final Tcp tcp = new Tcp();
    private final Raw raw = new Raw();
    private final Frames frames = new Frames();
    private Http2Connection connection;
    private ChannelHandlerContext rawCtx;
    private ChannelHandlerContext tcpCtx;
    private ScheduledFuture<?> timer;
    private long lastActivity = System.nanoTime();
    private long lastOutput = lastActivity;
    private int sending;
    private boolean closing;

    /** The state of one stream whose request the watchdog has seen start. */
    private static final class StreamState {
        final String request;
        long lastIn;
        boolean ended;
        boolean responded;

        StreamState(String request, long now) {
            this.request = request;
            this.lastIn = now;
        }
    }

    /**
     * @param idle  {@link ServerTimeouts#sessionIdle()}
     * @param stall {@link ServerTimeouts#requestStall()}
     * @param what  for the log, e.g. {@code "backup session"}
     */
    SessionWatchdog(Duration idle, Duration stall, String what) {
        this.what = what;
        this.idleNanos = idle.toNanos();
        this.stallNanos = stall.toNanos();
        long p = Math.min(idleNanos, stallNanos) / 4;
        this.periodNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(50), Math.min(p, TimeUnit.SECONDS.toNanos(5)));
    }

    /** The handler before TLS (first in the pipeline). */
    ChannelDuplexHandler tcp() {
        return tcp;
    }

    /** The handler between TLS and the HTTP/2 codec. */
    ChannelDuplexHandler raw() {
        return raw;
    }

    /** The handler between the HTTP/2 codec and the multiplexer. */
    ChannelDuplexHandler frames() {
        return frames;
    }

    /** Follows the codec's streams so closed ones are forgotten at once. */
    void watch(Http2Connection c) {
        this.connection = c;
        c.addListener(new Http2ConnectionAdapter() {
            @Override
            public void onStreamClosed(Http2Stream stream) {
                streams.remove(stream.id());
            }
        });
    }

    private void dataProgress(int streamId) {
        StreamState st = streams.get(streamId);
        if (st != null) {
            long now = System.nanoTime();
            st.lastIn = now;
            lastActivity = now;
        }
    }

    private void schedule() {
        if (!closing && rawCtx != null && rawCtx.channel().isActive()) {
            timer = rawCtx.executor().schedule(this::check, periodNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void check() {
        Channel ch = rawCtx.channel();
        if (closing || !ch.isActive()) {
            return;
        }
        long now = System.nanoTime();
        boolean reading = ch.config().isAutoRead() && !(connection != null && windowClosed(connection.connectionStream()));
        boolean busy = sending > 0 || !reading; // not reading: the server is the bottleneck
        if (!reading) {
            lastActivity = now;
        }
        for (Iterator<Map.Entry<Integer, StreamState>> it = streams.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Integer, StreamState> e = it.next();
            if (connection != null) {
                Http2Stream s = connection.stream(e.getKey());
                if (s == null || s.state() == Http2Stream.State.CLOSED) {
                    it.remove();
                    continue;
                }
            }
            StreamState st = e.getValue();
            if (st.ended) {
                busy |= !st.responded;
            } else if (!reading || (connection != null && windowClosed(connection.stream(e.getKey())))) {
                st.lastIn = now; // the server paused reading or withholds credit: the client is not stalled
            } else if (now - st.lastIn >= stallNanos) {
                close("request '" + st.request + "' received no data for " + seconds(now - st.lastIn), false);
                return;
            }
        }
        if (sending > 0 && now - lastOutput >= stallNanos) {
            close("no response data could be sent for " + seconds(now - lastOutput), false);
            return;
        }
        if (!busy && now - lastActivity >= idleNanos) {
            close("no request made progress for " + seconds(now - lastActivity), true);
            return;
        }
        schedule();
    }

    /** True if the client can send (almost) nothing more on {@code stream} until the server gives credit back. */
    private boolean windowClosed(Http2Stream stream) {
        return connection.local().flowController().windowSize(stream) < SMALL_WINDOW;
    }

    private static String seconds(long nanos) {
        return TimeUnit.NANOSECONDS.toSeconds(nanos) + " s";
    }

    /**
     * Closes the connection: an idle one with a TLS {@code close_notify} (the client may be
     * listening), a stalled one below TLS at once (a client that does not read would keep
     * the {@code close_notify} from being flushed for seconds).
     */
    private void close(String why, boolean tlsClose) {
        closing = true;
        LOG.log(Level.INFO, "closing " + what + " from " + rawCtx.channel().remoteAddress() + ": " + why);
        if (tlsClose || tcpCtx == null) {
            rawCtx.close();
        } else {
            tcpCtx.close();
        }
    }

    /** Plain-text side: frame boundaries of what arrives, socket writes of what leaves; closes. */
    private final class Raw extends ChannelDuplexHandler {
        private long prefaceLeft = PREFACE;
        private final byte[] header = new byte[9];
        private int headerFill;
        private long payloadLeft;
        private int frameStream;
        private boolean frameIsData;
        private boolean frameEndsStream;
        /** Plain-text bytes seen so far. */
        private long scanned;
        /** The stream whose body is coming in (0: none known), see the class comment. */
        private int bodyStream;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            rawCtx = ctx;
            schedule();
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            closing = true;
            if (timer != null) {
                timer.cancel(false);
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof ByteBuf b) {
                scan(b);
            }
            ctx.fireChannelRead(msg);
        }

        /** Follows frame boundaries over the readable bytes of {@code b} without consuming them. */
        private void scan(ByteBuf b) {
            int i = b.readerIndex();
            int end = b.writerIndex();
            scanned += end - i;
            while (i < end) {
                if (prefaceLeft > 0) {
                    int n = (int) Math.min(prefaceLeft, end - i);
                    prefaceLeft -= n;
                    i += n;
                } else if (payloadLeft == 0) {
                    header[headerFill++] = b.getByte(i++);
                    if (headerFill == header.length) {
                        headerFill = 0;
                        frameHeader();
                    }
                } else {
                    int n = (int) Math.min(payloadLeft, end - i);
                    payloadLeft -= n;
                    i += n;
                    if (frameIsData) {
                        dataProgress(frameStream);
                        if (payloadLeft == 0 && frameEndsStream) {
                            bodyStream = 0;
                        }
                    }
                }
            }
        }

        /** A frame header is complete: what comes next, and whose body is coming in. */
        private void frameHeader() {
            payloadLeft = ((header[0] & 0xffL) << 16) | ((header[1] & 0xffL) << 8) | (header[2] & 0xffL);
            int type = header[3] & 0xff;
            frameStream = ((header[5] & 0x7f) << 24) | ((header[6] & 0xff) << 16) | ((header[7] & 0xff) << 8)
                    | (header[8] & 0xff);
            frameEndsStream = (header[4] & 0x1) != 0; // END_STREAM of DATA and HEADERS
            frameIsData = type == 0 && frameStream != 0;
            if (frameIsData || type == 1) { // DATA, HEADERS: the body follows unless the stream ends here
                bodyStream = frameEndsStream && (type == 1 || payloadLeft == 0) ? 0 : frameStream;
            } else if (type != 9) { // CONTINUATION belongs to the HEADERS before it
                bodyStream = 0;
            }
        }
    }

    /** Encrypted side: bytes arriving for the body being received; response bytes reaching the socket. */
    private final class Tcp extends ChannelDuplexHandler {
        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            tcpCtx = ctx;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            boolean bytes = msg instanceof ByteBuf b && b.isReadable();
            int body = raw.bodyStream;
            long scanned = raw.scanned;
            ctx.fireChannelRead(msg); // TLS passes on the records that are complete now
            if (!bytes) {
                return;
            }
            if (body != 0) {
                dataProgress(body);
            } else if (raw.scanned == scanned) {
                lastActivity = System.nanoTime(); // part of a TLS record: the start of a request, maybe
            }
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof ByteBuf b && b.readableBytes() > SMALL_WRITE) {
                ChannelPromise p = promise.unvoid();
                p.addListener(f -> {
                    if (f.isSuccess()) {
                        lastOutput = System.nanoTime();
                    }
                });
                ctx.write(msg, p);
                return;
            }
            ctx.write(msg, promise);
        }
    }

    /** Frame side: request starts and ends, responses written. */
    private final class Frames extends ChannelDuplexHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            long now = System.nanoTime();
            if (msg instanceof Http2HeadersFrame h && h.stream() != null) {
                StreamState st = streams.get(h.stream().id());
                if (st == null) {
                    CharSequence m = h.headers().method();
                    CharSequence p = h.headers().path();
                    String path = p == null ? "" : p.toString();
                    int q = path.indexOf('?');
                    st = new StreamState((m == null ? "" : m + " ") + (q < 0 ? path : path.substring(0, q)), now);
                    streams.put(h.stream().id(), st);
                }
                st.lastIn = now;
                st.ended |= h.isEndStream();
                lastActivity = now;
            } else if (msg instanceof Http2DataFrame d && d.stream() != null) {
                StreamState st = streams.get(d.stream().id());
                if (st != null && (d.content().isReadable() || d.isEndStream())) {
                    st.lastIn = now;
                    st.ended |= d.isEndStream();
                    lastActivity = now;
                }
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof Http2HeadersFrame h && h.stream() != null) {
                StreamState st = streams.get(h.stream().id());
                if (st != null) {
                    st.responded = true;
                }
                lastActivity = System.nanoTime();
            } else if (msg instanceof Http2DataFrame) {
                long now = System.nanoTime();
                lastActivity = now;
                lastOutput = now;
                sending++;
                ChannelPromise p = promise.unvoid();
                p.addListener(f -> {
                    sending--;
                    long t = System.nanoTime();
                    lastActivity = t;
                    lastOutput = t;
                });
                ctx.write(msg, p);
                return;
            }
            ctx.write(msg, promise);
        }
    }
}
