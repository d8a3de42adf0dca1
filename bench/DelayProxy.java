import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;

/**
 * A TCP proxy that adds a fixed delay to every byte in each direction (latency, no bandwidth
 * limit), for benchmarks over loopback: 1 ms each way gives a 2 ms round trip. Single-file
 * program, run with {@code java bench/DelayProxy.java LISTEN_PORT TARGET_HOST TARGET_PORT DELAY_MS}
 * (LISTEN_PORT 0 picks a free port; the port is printed as {@code listening on PORT}).
 *
 * <p>Per connection and direction one thread reads whatever arrives and queues it with its due
 * time, another writes it when due, so data keeps flowing while earlier data is delayed.
 */
public final class DelayProxy {
    private record Piece(byte[] data, int len, long dueNanos) implements Delayed {
        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(dueNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed o) {
            return Long.compare(dueNanos, ((Piece) o).dueNanos);
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            System.err.println("usage: java DelayProxy.java LISTEN_PORT TARGET_HOST TARGET_PORT DELAY_MS");
            System.exit(2);
        }
        int listen = Integer.parseInt(args[0]);
        String host = args[1];
        int port = Integer.parseInt(args[2]);
        long delayNanos = (long) (Double.parseDouble(args[3]) * 1_000_000);
        try (ServerSocket ss = new ServerSocket()) {
            ss.setReuseAddress(true);
            ss.bind(new InetSocketAddress("127.0.0.1", listen));
            System.out.println("listening on " + ss.getLocalPort());
            System.out.flush();
            while (true) {
                Socket client = ss.accept();
                Thread.ofPlatform().daemon().start(() -> connect(client, host, port, delayNanos));
            }
        }
    }

    private static void connect(Socket client, String host, int port, long delayNanos) {
        try {
            Socket server = new Socket(host, port);
            for (Socket s : new Socket[] {client, server}) {
                s.setTcpNoDelay(true);
                s.setReceiveBufferSize(4 << 20);
                s.setSendBufferSize(4 << 20);
            }
            pump(client, server, delayNanos);
            pump(server, client, delayNanos);
        } catch (IOException e) {
            close(client);
        }
    }

    private static void pump(Socket from, Socket to, long delayNanos) throws IOException {
        DelayQueue<Piece> queue = new DelayQueue<>();
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        Thread.ofPlatform().daemon().start(() -> {
            byte[] buf = new byte[256 * 1024];
            try {
                for (int n; (n = in.read(buf)) > 0; ) {
                    queue.add(new Piece(Arrays.copyOf(buf, n), n, System.nanoTime() + delayNanos));
                }
            } catch (IOException e) {
                // connection ended
            }
            queue.add(new Piece(null, -1, System.nanoTime() + delayNanos + 1)); // end marker, due after the data
        });
        Thread.ofPlatform().daemon().start(() -> {
            try {
                while (true) {
                    Piece p = queue.take();
                    if (p.data() == null) {
                        to.shutdownOutput();
                        break;
                    }
                    out.write(p.data(), 0, p.len());
                }
            } catch (IOException | InterruptedException e) {
                close(from);
                close(to);
            }
        });
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // ignore
        }
    }
}
