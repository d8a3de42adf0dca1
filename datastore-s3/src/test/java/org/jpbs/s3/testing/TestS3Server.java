package org.jpbs.s3.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import org.jpbs.s3.config.S3EndpointConfig;

/**
 * A real S3 server for tests: s3proxy (in-memory blob store) on {@code https://127.0.0.1:<ephemeral>}
 * with a fresh self-signed certificate (made by the JDK's keytool), access key
 * {@code jpbs-test}. {@link #endpoint} gives the {@code s3.cfg} entry that reaches it, the
 * certificate pinned by its fingerprint.
 */
public final class TestS3Server implements AutoCloseable {
    public static final String ACCESS_KEY = "jpbs-test";
    public static final String SECRET_KEY = "jpbs-test-secret-key";
    private static final String PASSWORD = "jpbs-test";

    private final S3Proxy proxy;
    private final BlobStore store;
    private final String fingerprint;
    private X509Certificate certificate;

    private TestS3Server(S3Proxy proxy, BlobStore store, String fingerprint) {
        this.proxy = proxy;
        this.store = store;
        this.fingerprint = fingerprint;
    }

    /**
     * Starts a server with the given buckets; {@code virtualHost} (e.g. {@code s3.test}) enables
     * virtual-hosted addressing for {@code <bucket>.<virtualHost>}, or null.
     */
    public static TestS3Server start(Path tmp, String virtualHost, String... buckets) throws Exception {
        Path ks = tmp.resolve("s3-test-" + System.nanoTime() + ".p12");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "s3", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=127.0.0.1",
                "-ext", "san=ip:127.0.0.1,dns:localhost", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", ks.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD)
                .redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool failed: " + new String(out));
        }
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(ks)) {
            keyStore.load(in, PASSWORD.toCharArray());
        }
        X509Certificate cert = (X509Certificate) keyStore.getCertificate("s3");
        String fp = HexFormat.ofDelimiter(":").formatHex(MessageDigest.getInstance("SHA-256").digest(cert.getEncoded()));
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keyStore, PASSWORD.toCharArray());
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        BlobStore store = new TransientNio2BlobStore();
        for (String b : buckets) {
            store.createContainer(b);
        }
        S3Proxy.Builder b = S3Proxy.builder().blobStore(store)
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                .secureEndpoint(URI.create("https://127.0.0.1:0")).sslContext(ctx);
        if (virtualHost != null) {
            b.virtualHost(virtualHost);
        }
        S3Proxy proxy = b.build();
        proxy.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                throw new IOException("s3proxy did not start: " + proxy.getState());
            }
            Thread.sleep(10);
        }
        TestS3Server server = new TestS3Server(proxy, store, fp);
        server.certificate = cert;
        return server;
    }

    /** The HTTPS port. */
    public int port() {
        return proxy.getSecurePort();
    }

    /** The server's self-signed certificate (SAN 127.0.0.1 and localhost), e.g. for a trust store. */
    public X509Certificate certificate() {
        return certificate;
    }

    /** The certificate's SHA-256 fingerprint ({@code aa:bb:…}). */
    public String fingerprint() {
        return fingerprint;
    }

    /** The blob store behind the server (tests look at or damage objects directly). */
    public BlobStore blobStore() {
        return store;
    }

    /** An endpoint config reaching this server (path-style, pinned fingerprint) on {@code port}. */
    public S3EndpointConfig endpoint(String id, int port) {
        return new S3EndpointConfig(id, "127.0.0.1", port, "us-east-1", fingerprint, ACCESS_KEY, SECRET_KEY,
                true, null, null, null, null, null, Set.of());
    }

    /** An endpoint config reaching this server directly. */
    public S3EndpointConfig endpoint(String id) {
        return endpoint(id, port());
    }

    @Override
    public void close() throws Exception {
        proxy.stop();
    }
}
