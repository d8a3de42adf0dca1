import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bench load generator (Netty, HTTP/1.1 keep-alive over TLS): C connections, each sending the
 * next request when the previous answer is complete, over a shared shuffled list of
 * GET /api2/json/admin/datastore/dsXXXX/status?verbose=0 (R requests per store, N stores),
 * with an API token. Prints one line per run: requests/s, p50 and p99 latency in ms; the
 * connections are opened (TLS handshakes done) before the clock starts.
 * Usage: java -cp <jars> StatusLoad.java PORT TOKEN STORES PER_STORE CLIENTS RUNS WARMUP_RUNS
 */
public class StatusLoad {
    public static void main(String[] a) throws Exception {
        int port = Integer.parseInt(a[0]);
        String token = a[1];
        int stores = Integer.parseInt(a[2]);
        int perStore = Integer.parseInt(a[3]);
        int clients = Integer.parseInt(a[4]);
        int runs = Integer.parseInt(a[5]);
        int warmup = Integer.parseInt(a[6]);
        SslContext ssl = SslContextBuilder.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE).build();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            for (int run = -warmup; run < runs; run++) {
                List<String> uris = new ArrayList<>();
                for (int i = 0; i < stores; i++) {
                    for (int r = 0; r < perStore; r++) {
                        uris.add(String.format("/api2/json/admin/datastore/ds%04d/status?verbose=0", i));
                    }
                }
                Collections.shuffle(uris, new Random(run + 100));
                long[] lat = new long[uris.size()];
                AtomicInteger next = new AtomicInteger();
                AtomicInteger errors = new AtomicInteger();
                CountDownLatch done = new CountDownLatch(clients);
                List<Client> cs = new ArrayList<>();
                for (int c = 0; c < clients; c++) {
                    cs.add(new Client(group, ssl, port, token, uris, lat, next, errors, done));
                }
                for (Client c : cs) {
                    c.connect();
                }
                long t0 = System.nanoTime();
                cs.forEach(Client::sendNext);
                if (!done.await(600, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("run did not finish in 600 s");
                }
                long t1 = System.nanoTime();
                cs.forEach(c -> c.ch.close());
                if (errors.get() > 0) {
                    throw new IllegalStateException(errors.get() + " requests failed");
                }
                Arrays.sort(lat);
                double secs = (t1 - t0) / 1e9;
                String line = String.format(Locale.ROOT, "%s %d requests %.3f s %.0f req/s p50 %.2f ms p99 %.2f ms",
                        run < 0 ? "warmup" : "run", lat.length, secs, lat.length / secs,
                        lat[lat.length / 2] / 1e6, lat[(int) Math.ceil(lat.length * 0.99) - 1] / 1e6);
                System.out.println(line);
            }
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    static final class Client extends SimpleChannelInboundHandler<FullHttpResponse> {
        final EventLoopGroup group;
        final SslContext ssl;
        final int port;
        final String token;
        final List<String> uris;
        final long[] lat;
        final AtomicInteger next;
        final AtomicInteger errors;
        final CountDownLatch done;
        Channel ch;
        int current = -1;
        long sent;

        Client(EventLoopGroup group, SslContext ssl, int port, String token, List<String> uris, long[] lat,
               AtomicInteger next, AtomicInteger errors, CountDownLatch done) {
            this.group = group;
            this.ssl = ssl;
            this.port = port;
            this.token = token;
            this.uris = uris;
            this.lat = lat;
            this.next = next;
            this.errors = errors;
            this.done = done;
        }

        void connect() throws Exception {
            Client self = this;
            ch = new Bootstrap().group(group).channel(NioSocketChannel.class).handler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel c) {
                    c.pipeline().addLast(ssl.newHandler(c.alloc(), "127.0.0.1", port), new HttpClientCodec(),
                            new HttpObjectAggregator(1 << 20), self);
                }
            }).connect("127.0.0.1", port).sync().channel();
            ch.pipeline().get(io.netty.handler.ssl.SslHandler.class).handshakeFuture().sync();
        }

        void sendNext() {
            int i = next.getAndIncrement();
            if (i >= uris.size()) {
                done.countDown();
                return;
            }
            current = i;
            DefaultFullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, uris.get(i),
                    Unpooled.EMPTY_BUFFER);
            req.headers().set(HttpHeaderNames.HOST, "127.0.0.1");
            req.headers().set(HttpHeaderNames.AUTHORIZATION, "PBSAPIToken=" + token);
            sent = System.nanoTime();
            ch.writeAndFlush(req);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse r) {
            lat[current] = System.nanoTime() - sent;
            if (r.status().code() != 200 || r.content().readableBytes() < 20) {
                if (errors.getAndIncrement() == 0) {
                    System.err.println("error answer: " + r.status() + " " + r.content().toString(java.nio.charset.StandardCharsets.UTF_8));
                }
            }
            sendNext();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            System.err.println("connection error: " + cause);
            errors.incrementAndGet();
            ctx.close();
            done.countDown();
        }
    }
}
