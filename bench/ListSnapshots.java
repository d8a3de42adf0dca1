import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Locale;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Bench client: GET /api2/json/admin/datastore/STORE/snapshots over HTTPS (JDK HttpClient,
 * HTTP/1.1) with an API token, parsed as a stream (Jackson streaming parser; the client keeps
 * no list), counting the snapshots and checking each has backup-time and files. Prints count,
 * bytes, seconds and the transfer encoding.
 * Usage: java -cp <jars> ListSnapshots.java PORT TOKEN STORE
 */
public class ListSnapshots {
    public static void main(String[] a) throws Exception {
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, new TrustManager[] {new TrustAll()}, null);
        HttpClient http = HttpClient.newBuilder().sslContext(ssl).version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest req = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + a[0] + "/api2/json/admin/datastore/"
                + a[2] + "/snapshots")).header("Authorization", "PBSAPIToken=" + a[1]).timeout(Duration.ofMinutes(30)).build();
        long t0 = System.nanoTime();
        HttpResponse<InputStream> r = http.send(req, HttpResponse.BodyHandlers.ofInputStream());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("status " + r.statusCode() + ": " + new String(r.body().readAllBytes()));
        }
        long count = 0;
        long bytes;
        try (CountingStream in = new CountingStream(r.body()); JsonParser p = new JsonFactory().createParser(in)) {
            int depth = 0;
            boolean time = false;
            boolean files = false;
            for (JsonToken t; (t = p.nextToken()) != null; ) {
                if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                    depth++;
                    if (depth == 3 && t == JsonToken.START_OBJECT) {
                        time = false;
                        files = false;
                    }
                } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                    if (depth == 3 && t == JsonToken.END_OBJECT) {
                        if (!time || !files) {
                            throw new IllegalStateException("snapshot " + count + " lacks backup-time or files");
                        }
                        count++;
                    }
                    depth--;
                } else if (t == JsonToken.FIELD_NAME && depth == 3) {
                    time |= p.currentName().equals("backup-time");
                    files |= p.currentName().equals("files");
                }
            }
            bytes = in.n;
        }
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "listed %d snapshots, %d bytes in %.1f s (%.0f snapshots/s), transfer-encoding %s%n",
                count, bytes, s, count / s, r.headers().firstValue("transfer-encoding").orElse("none"));
        http.close();
    }

    static final class CountingStream extends java.io.FilterInputStream {
        long n;

        CountingStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws java.io.IOException {
            int c = super.read();
            if (c >= 0) {
                n++;
            }
            return c;
        }

        @Override
        public int read(byte[] b, int off, int len) throws java.io.IOException {
            int k = super.read(b, off, len);
            if (k > 0) {
                n += k;
            }
            return k;
        }
    }

    static final class TrustAll extends X509ExtendedTrustManager {
        public void checkClientTrusted(X509Certificate[] c, String a, Socket s) {}

        public void checkServerTrusted(X509Certificate[] c, String a, Socket s) {}

        public void checkClientTrusted(X509Certificate[] c, String a, SSLEngine e) {}

        public void checkServerTrusted(X509Certificate[] c, String a, SSLEngine e) {}

        public void checkClientTrusted(X509Certificate[] c, String a) {}

        public void checkServerTrusted(X509Certificate[] c, String a) {}

        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
