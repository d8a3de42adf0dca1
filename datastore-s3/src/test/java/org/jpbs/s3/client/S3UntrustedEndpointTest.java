package org.jpbs.s3.client;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.jpbs.s3.config.S3EndpointConfig;
import org.jpbs.s3.testing.TestS3Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An endpoint without a fingerprint whose self-signed certificate no trusted CA signed: the error
 * says so and how to pin it, in words of ours, not the JDK's "PKIX path building failed:
 * sun.security.provider.certpath.SunCertPathBuilderException".
 */
class S3UntrustedEndpointTest {
    @TempDir
    static Path tmp;
    static TestS3Server server;

    @BeforeAll
    static void start() throws Exception {
        server = TestS3Server.start(tmp, null, "untrusted");
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void untrustedCertificateIsNamedWithoutJdkInternals() throws Exception {
        S3EndpointConfig pinned = server.endpoint("untrusted");
        S3EndpointConfig unpinned = new S3EndpointConfig(pinned.id(), pinned.endpoint(), pinned.port(), pinned.region(),
                null, pinned.accessKey(), pinned.secretKey(), pinned.pathStyle(), null, null, null, null, null,
                pinned.providerQuirks());
        try (S3ObjectStore s = S3Connector.open(unpinned, "untrusted", "u",
                S3Options.defaults().withAttempts(1, Duration.ofSeconds(10)))) {
            ObjectStoreUnavailableException e = assertThrows(ObjectStoreUnavailableException.class,
                    () -> s.put("obj", new byte[] {1}, false));
            assertTrue(e.getMessage().contains("not signed by a trusted certificate authority"), e.getMessage());
            assertTrue(e.getMessage().contains("set the endpoint's fingerprint"), e.getMessage());
            assertFalse(e.getMessage().contains("sun.security"), e.getMessage());
            assertFalse(e.getMessage().contains("PKIX"), e.getMessage());
        }
    }
}
