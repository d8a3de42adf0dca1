package org.jpbs.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on 127.0.0.1 to a local port that forwards each direction at a bounded rate
 * ({@link Long#MAX_VALUE}: unthrottled), as a slow network: the client's requests
 * ({@code upRate}) and the server's answers ({@code downRate}); it counts the bytes forwarded
 * each way and keeps both sides open until one closes.
 */
final class ThrottlingProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final List<Socket> sockets = Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong up = new AtomicLong();
    private final AtomicLong down = new AtomicLong();

    ThrottlingProxy(int target, long upRate, long downRate) throws IOException {
        listener = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().start(() -> {
            try {
                while (true) {
                    Socket in = listener.accept();
                    Socket out = new Socket(InetAddress.getLoopbackAddress(), target);
                    sockets.add(in);
                    sockets.add(out);
                    Thread.ofPlatform().daemon().start(() -> pump(in, out, upRate, up));
                    Thread.ofPlatform().daemon().start(() -> pump(out, in, downRate, down));
                }
            } catch (IOException e) {
                // closed
            }
        });
    }

    int port() {
        return listener.getLocalPort();
    }

    /** Bytes forwarded from the server to the clients so far. */
    long downBytes() {
        return down.get();
    }

    private static void pump(Socket from, Socket to, long rate, AtomicLong count) {
        byte[] buf = new byte[16 * 1024];
        long start = System.nanoTime();
        long sent = 0;
        try {
            for (int n; (n = from.getInputStream().read(buf)) >= 0; ) {
                to.getOutputStream().write(buf, 0, n);
                sent += n;
                count.addAndGet(n);
                if (rate != Long.MAX_VALUE) {
                    long due = start + sent * 1_000_000_000L / rate;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                }
            }
            to.shutdownOutput();
        } catch (IOException | InterruptedException e) {
            // one side closed
        } finally {
            try {
                from.close();
                to.close();
            } catch (IOException e) {
                // ignore
            }
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        synchronized (sockets) {
            for (Socket s : sockets) {
                s.close();
            }
        }
    }
}
