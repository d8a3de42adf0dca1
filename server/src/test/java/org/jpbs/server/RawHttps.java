package org.jpbs.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * A blocking HTTPS/1.1 connection on a JDK {@link SSLSocket} (trust-all, no ALPN) for REST
 * calls and for byte-level abuse (garbage after the {@code 101}).
 */
final class RawHttps implements AutoCloseable {
    /** A parsed HTTP/1.1 response. */
    record Response(int status, Map<String, String> headers, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final SSLSocket socket;
    private final InputStream in;
    private final OutputStream out;

    RawHttps(int port) throws Exception {
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, new TrustManager[] {new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] c, String a) {}

            @Override
            public void checkServerTrusted(X509Certificate[] c, String a) {}

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        }}, new SecureRandom());
        socket = (SSLSocket) ctx.getSocketFactory().createSocket("127.0.0.1", port);
        socket.setSoTimeout(60_000);
        socket.startHandshake();
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    /** The server's leaf certificate. */
    X509Certificate peerCertificate() throws Exception {
        return (X509Certificate) socket.getSession().getPeerCertificates()[0];
    }

    /** Sends a request (body may be null) and reads the response (needs content-length). */
    Response request(String method, String uri, Map<String, String> headers, byte[] body) throws IOException {
        StringBuilder sb = new StringBuilder(method).append(' ').append(uri).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        headers.forEach((k, v) -> sb.append(k).append(": ").append(v).append("\r\n"));
        sb.append("Content-Length: ").append(body == null ? 0 : body.length).append("\r\n\r\n");
        out.write(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
        if (body != null) {
            out.write(body);
        }
        out.flush();
        return readResponse();
    }

    /** Reads one response. */
    Response readResponse() throws IOException {
        String head = readHead();
        String[] lines = head.split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> h = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int c = lines[i].indexOf(':');
            h.put(lines[i].substring(0, c).trim().toLowerCase(Locale.ROOT), lines[i].substring(c + 1).trim());
        }
        int len = h.containsKey("content-length") ? Integer.parseInt(h.get("content-length")) : 0;
        return new Response(status, h, in.readNBytes(len));
    }

    private String readHead() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int state = 0;
        while (state < 4) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("connection closed in the middle of a response head: " + b);
            }
            b.write(c);
            state = (c == '\r' && (state == 0 || state == 2)) || (c == '\n' && (state == 1 || state == 3)) ? state + 1
                    : (c == '\r' ? 1 : 0);
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }

    /** Writes raw bytes. */
    void write(byte[] data) throws IOException {
        out.write(data);
        out.flush();
    }

    /**
     * Reads until the server closes the connection; returns the byte count (a reset also counts
     * as closed), or -1 if nothing happened for the socket timeout (60 s).
     */
    long drainUntilClosed() {
        long n = 0;
        byte[] buf = new byte[8192];
        try {
            for (int r; (r = in.read(buf)) >= 0; ) {
                n += r;
            }
        } catch (java.net.SocketTimeoutException e) {
            return -1;
        } catch (IOException e) {
            // reset or TLS close without close_notify: the server ended the connection
        }
        return n;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
