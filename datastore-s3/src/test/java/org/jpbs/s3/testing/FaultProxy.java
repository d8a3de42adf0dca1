package org.jpbs.s3.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on 127.0.0.1 in front of a server that fails about one exchange in {@code oneIn}:
 * each time the server starts to answer a new request (its first bytes after bytes from the
 * client), a seeded die decides; on a hit the connection is either dropped (both sockets closed,
 * nothing forwarded) or the answer truncated (half of the bytes read forwarded, then closed).
 * Works below TLS: the client sees a connection reset, an EOF or a broken TLS record.
 */
public final class FaultProxy implements AutoCloseable {
    private final ServerSocket server;
    private final int targetPort;
    private final int oneIn;
    private final Random random;
    private final ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
    private final AtomicLong exchanges = new AtomicLong();
    private final AtomicLong drops = new AtomicLong();
    private final AtomicLong truncations = new AtomicLong();
    private volatile boolean enabled = true;

    public FaultProxy(int targetPort, int oneIn, long seed) throws IOException {
        this.server = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
        this.targetPort = targetPort;
        this.oneIn = oneIn;
        this.random = new Random(seed);
        pool.submit(this::acceptLoop);
    }

    /** The port to connect to. */
    public int port() {
        return server.getLocalPort();
    }

    /** Turns fault injection on or off (off: a plain proxy). */
    public void enabled(boolean on) {
        enabled = on;
    }

    /** Answers started so far. */
    public long exchanges() {
        return exchanges.get();
    }

    /** Faults injected so far (drops plus truncations). */
    public long faults() {
        return drops.get() + truncations.get();
    }

    @Override
    public String toString() {
        return exchanges + " answers, " + drops + " dropped, " + truncations + " truncated";
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket c = server.accept();
                Socket s = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                c.setTcpNoDelay(true);
                s.setTcpNoDelay(true);
                Conn conn = new Conn(c, s);
                pool.submit(conn::up);
                pool.submit(conn::down);
            } catch (IOException e) {
                // closed, or the target refused: the client sees its connection fail
            }
        }
    }

    private boolean roll() {
        synchronized (random) {
            return random.nextInt(oneIn) == 0;
        }
    }

    private boolean coin() {
        synchronized (random) {
            return random.nextBoolean();
        }
    }

    private final class Conn {
        final Socket client;
        final Socket target;
        volatile boolean newRequest = true;

        Conn(Socket client, Socket target) {
            this.client = client;
            this.target = target;
        }

        void up() {
            byte[] buf = new byte[64 << 10];
            try (InputStream in = client.getInputStream(); OutputStream out = target.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) > 0) {
                    newRequest = true;
                    out.write(buf, 0, n);
                }
            } catch (IOException e) {
                // either side closed
            } finally {
                closeBoth();
            }
        }

        void down() {
            byte[] buf = new byte[64 << 10];
            try (InputStream in = target.getInputStream(); OutputStream out = client.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) > 0) {
                    if (newRequest) {
                        newRequest = false;
                        exchanges.incrementAndGet();
                        if (enabled && roll()) {
                            if (coin()) {
                                drops.incrementAndGet();
                            } else {
                                truncations.incrementAndGet();
                                out.write(buf, 0, n / 2);
                                out.flush();
                            }
                            closeBoth();
                            return;
                        }
                    }
                    out.write(buf, 0, n);
                }
            } catch (IOException e) {
                // either side closed
            } finally {
                closeBoth();
            }
        }

        void closeBoth() {
            try {
                client.close();
            } catch (IOException ignored) {
                // already closed
            }
            try {
                target.close();
            } catch (IOException ignored) {
                // already closed
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        pool.shutdownNow();
    }
}
