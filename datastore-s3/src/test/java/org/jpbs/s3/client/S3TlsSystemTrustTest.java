package org.jpbs.s3.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import org.jpbs.s3.config.S3EndpointConfig;
import org.jpbs.s3.testing.TestS3Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An endpoint without a fingerprint is checked against the system's trust store and the host
 * name, also with the BoringSSL engine (Conscrypt takes the JDK's default trust manager, which
 * reads {@code javax.net.ssl.trustStore}): the test server's certificate put into a trust store
 * of its own is accepted for {@code 127.0.0.1} (its SAN).
 */
class S3TlsSystemTrustTest {
    @TempDir
    static Path tmp;
    static TestS3Server server;

    @BeforeAll
    static void start() throws Exception {
        server = TestS3Server.start(tmp, null, "castore");
        KeyStore ts = KeyStore.getInstance("PKCS12");
        ts.load(null, null);
        ts.setCertificateEntry("s3", server.certificate());
        Path file = tmp.resolve("trust.p12");
        try (OutputStream out = Files.newOutputStream(file)) {
            ts.store(out, "changeit".toCharArray());
        }
        System.setProperty("javax.net.ssl.trustStore", file.toString());
        System.setProperty("javax.net.ssl.trustStoreType", "PKCS12");
        System.setProperty("javax.net.ssl.trustStorePassword", "changeit");
        System.setProperty("jpbs.s3.tls", "boringssl");
    }

    @AfterAll
    static void stop() throws Exception {
        System.clearProperty("javax.net.ssl.trustStore");
        System.clearProperty("javax.net.ssl.trustStoreType");
        System.clearProperty("javax.net.ssl.trustStorePassword");
        System.clearProperty("jpbs.s3.tls");
        server.close();
    }

    @Test
    void caTrustedEndpointWithHostNameCheck() throws Exception {
        S3EndpointConfig pinned = server.endpoint("ca-trust");
        S3EndpointConfig ca = new S3EndpointConfig(pinned.id(), pinned.endpoint(), pinned.port(), pinned.region(), null,
                pinned.accessKey(), pinned.secretKey(), pinned.pathStyle(), null, null, null, null, null,
                pinned.providerQuirks());
        assertTrue(S3Tls.useBoringSsl());
        byte[] body = "trusted through the trust store".getBytes();
        try (S3ObjectStore s = S3Connector.open(ca, "castore", "ca", S3Options.defaults())) {
            assertTrue(s.put("obj", body, false));
            assertArrayEquals(body, s.get("obj").orElseThrow().data());
        }
    }
}
