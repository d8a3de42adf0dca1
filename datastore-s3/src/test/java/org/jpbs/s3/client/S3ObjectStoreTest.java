package org.jpbs.s3.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import org.jpbs.s3.config.S3EndpointConfig;
import org.jpbs.s3.testing.FaultProxy;
import org.jpbs.s3.testing.TestS3Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** {@link S3ObjectStore} against a real S3 server (s3proxy on loopback, HTTPS, pinned certificate). */
class S3ObjectStoreTest {
    @TempDir
    static Path tmp;
    static TestS3Server server;

    @BeforeAll
    static void start() throws Exception {
        server = TestS3Server.start(tmp, null, "bucket1", "bucket2");
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void putGetHeadListDeleteUnderTheStorePrefix() throws IOException {
        try (S3ObjectStore s = S3Connector.open(server.endpoint("ep1"), "bucket1", "store1", S3Options.defaults());
             S3ObjectStore other = S3Connector.open(server.endpoint("ep1"), "bucket1", "store2", S3Options.defaults())) {
            byte[] a = random(1000, 1);
            assertTrue(s.put(".chunks/abcd/x", a, false));
            assertTrue(s.put(".cnt/vm/100/owner", "root@pam\n".getBytes(), false));
            assertArrayEquals(a, s.get(".chunks/abcd/x").orElseThrow().data());
            assertEquals(1000, s.head(".chunks/abcd/x").orElseThrow().size());
            assertTrue(s.get("missing").isEmpty());
            assertTrue(s.head("missing").isEmpty());
            assertTrue(other.get(".chunks/abcd/x").isEmpty(), "another store prefix sees nothing");
            List<String> keys = new ArrayList<>();
            s.list("", o -> keys.add(o.key()));
            assertEquals(List.of(".chunks/abcd/x", ".cnt/vm/100/owner"), keys);
            List<String> raw = new ArrayList<>();
            server.blobStore().list("bucket1").contents().forEach(m -> raw.add(m.key()));
            assertTrue(raw.contains("store1/.chunks/abcd/x"), raw.toString());
            s.delete(List.of(".chunks/abcd/x", "missing"));
            assertTrue(s.get(".chunks/abcd/x").isEmpty());
            assertTrue(s.requests() > 8);
        }
    }

    @Test
    void putIfAbsentKeepsTheExistingObject() throws IOException {
        try (S3ObjectStore s = S3Connector.open(server.endpoint("ep1"), "bucket1", "ifabsent", S3Options.defaults())) {
            assertTrue(s.put("k", "first".getBytes(), true));
            assertFalse(s.put("k", "second".getBytes(), true));
            assertArrayEquals("first".getBytes(), s.get("k").orElseThrow().data());
            assertTrue(s.put("k", "third".getBytes(), false));
            assertArrayEquals("third".getBytes(), s.get("k").orElseThrow().data());
        }
    }

    @Test
    void uploadsCarryACrc32cChecksumTheServerChecksAndADamagedBodyIsRefused() throws IOException {
        byte[] a = random(100_000, 7);
        try (S3ObjectStore s = S3Connector.open(server.endpoint("ep1"), "bucket1", "crc", S3Options.defaults());
             S3Client raw = S3Connector.client(server.endpoint("ep1"), S3Options.defaults(), new LongAdder())) {
            assertTrue(s.put("k", a, true));
            // the server kept the checksum it was sent, so it had it to check
            var head = raw.headObject(b -> b.bucket("bucket1").key("crc/k").checksumMode(ChecksumMode.ENABLED));
            assertEquals(S3ObjectStore.crc32cBase64(a), head.checksumCRC32C());
            assertTrue(s.put("k2", a, false));
            assertEquals(S3ObjectStore.crc32cBase64(a), raw.headObject(b -> b.bucket("bucket1").key("crc/k2")
                    .checksumMode(ChecksumMode.ENABLED)).checksumCRC32C(), "still CRC32C: the server answered with it");
            // a body that does not match its checksum (damaged on the way) is refused, nothing stored
            byte[] damaged = a.clone();
            damaged[5000] ^= 1;
            S3Exception e = assertThrows(S3Exception.class, () -> raw.putObject(b -> b.bucket("bucket1").key("crc/bad")
                    .checksumCRC32C(S3ObjectStore.crc32cBase64(a)), RequestBody.fromBytes(damaged)));
            assertEquals(400, e.statusCode(), e.getMessage());
            assertTrue(s.head("bad").isEmpty());
        }
    }

    @Test
    void putIfAbsentWithTheSkipIfNoneMatchQuirkChecksFirst() throws IOException {
        S3EndpointConfig c = server.endpoint("ep2");
        S3EndpointConfig quirky = new S3EndpointConfig(c.id(), c.endpoint(), c.port(), c.region(), c.fingerprint(),
                c.accessKey(), c.secretKey(), true, 1000L, null, null, null, null,
                Set.of(S3EndpointConfig.QUIRK_SKIP_IF_NONE_MATCH, S3EndpointConfig.QUIRK_SINGLE_DELETE));
        try (S3ObjectStore s = S3Connector.open(quirky, "bucket1", "quirks", S3Options.defaults())) {
            assertTrue(s.put("k", "first".getBytes(), true));
            assertFalse(s.put("k", "second".getBytes(), true));
            assertArrayEquals("first".getBytes(), s.get("k").orElseThrow().data());
            s.delete(List.of("k"));
            assertTrue(s.head("k").isEmpty());
        }
    }

    @Test
    void largeObjectsGoUpInParallelParts() throws IOException {
        S3Options o = S3Options.defaults().withMultipart(6L << 20, 5L << 20);
        try (S3ObjectStore s = S3Connector.open(server.endpoint("ep1"), "bucket2", "mp", o)) {
            byte[] big = random((17 << 20) + 123, 7);
            long before = s.requests();
            assertTrue(s.put("big", big, false));
            // create + 4 parts + complete
            assertEquals(6, s.requests() - before);
            assertArrayEquals(big, s.get("big").orElseThrow().data());
        }
    }

    @Test
    void virtualHostedAddressingPutsTheBucketIntoTheHostName() throws Exception {
        try (TestS3Server vserver = TestS3Server.start(tmp, "s3.test", "bucket2")) {
            virtualHosted(vserver);
        }
    }

    private static void virtualHosted(TestS3Server vserver) throws IOException {
        S3EndpointConfig c = vserver.endpoint("ep1");
        S3EndpointConfig vhost = new S3EndpointConfig("vhost", "{{bucket}}.s3.test", c.port(), "eu-central-1",
                c.fingerprint(), c.accessKey(), c.secretKey(), false, null, null, null, null, null, Set.of());
        List<String> resolved = new ArrayList<>();
        S3Options o = S3Options.defaults().withResolver(host -> {
            resolved.add(host);
            return new InetAddress[] {InetAddress.getLoopbackAddress()};
        });
        try (S3ObjectStore s = S3Connector.open(vhost, "bucket2", "vh", o)) {
            assertTrue(s.put("k", "v".getBytes(), false));
            assertArrayEquals("v".getBytes(), s.get("k").orElseThrow().data());
        }
        assertTrue(resolved.contains("bucket2.s3.test"), resolved.toString());
    }

    @Test
    void aMissingBucketIsNotAMissingObject() {
        try (S3ObjectStore s = S3Connector.open(server.endpoint("ep1"), "nobucket", "x", S3Options.defaults())) {
            IOException e = assertThrows(IOException.class, () -> s.get("k"));
            assertTrue(e.getMessage().contains("HTTP 404 NoSuchBucket"), e.getMessage());
        }
    }

    @Test
    void aCertificateWithAnotherFingerprintIsRefused() {
        S3EndpointConfig c = server.endpoint("ep1");
        String wrong = "00" + c.fingerprint().substring(2);
        S3EndpointConfig bad = new S3EndpointConfig("bad", c.endpoint(), c.port(), c.region(), wrong,
                c.accessKey(), c.secretKey(), true, null, null, null, null, null, Set.of());
        try (S3ObjectStore s = S3Connector.open(bad, "bucket1", "x", S3Options.defaults().withAttempts(1, Duration.ofSeconds(5)))) {
            IOException e = assertThrows(IOException.class, () -> s.get("k"));
            assertTrue(e.getMessage().contains("fingerprint") || String.valueOf(e.getCause()).contains("fingerprint"),
                    e.toString());
        }
    }

    @Test
    void wrongCredentialsAreADefiniteRefusalNotATransientOne() {
        S3EndpointConfig c = server.endpoint("ep1");
        S3EndpointConfig bad = new S3EndpointConfig("bad", c.endpoint(), c.port(), c.region(), c.fingerprint(),
                c.accessKey(), "wrong-secret", true, null, null, null, null, null, Set.of());
        try (S3ObjectStore s = S3Connector.open(bad, "bucket1", "x", S3Options.defaults())) {
            IOException e = assertThrows(IOException.class, () -> s.put("k", new byte[1], false));
            assertFalse(e instanceof ObjectStoreUnavailableException, e.toString());
            assertTrue(e.getMessage().contains("HTTP 403"), e.getMessage());
        }
    }

    @Test
    void oneFailedAnswerInFiftyIsRetriedAway() throws IOException {
        try (FaultProxy proxy = new FaultProxy(server.port(), 50, 42);
             S3ObjectStore s = S3Connector.open(server.endpoint("ep1", proxy.port()), "bucket2", "faults",
                     S3Options.defaults().withAttempts(6, Duration.ofSeconds(10)))) {
            for (int i = 0; i < 300; i++) {
                byte[] d = random(20_000 + i, i);
                s.put("o" + i, d, true);
                assertArrayEquals(d, s.get("o" + i).orElseThrow().data(), "object " + i);
            }
            assertTrue(proxy.faults() >= 3, proxy.toString());
        }
    }

    @Test
    void anEndpointThatIsDownIsReportedAsUnavailable() throws IOException {
        try (FaultProxy proxy = new FaultProxy(server.port(), 1, 1);
             S3ObjectStore s = S3Connector.open(server.endpoint("ep1", proxy.port()), "bucket2", "down",
                     S3Options.defaults().withAttempts(3, Duration.ofSeconds(5)))) {
            IOException e = assertThrows(IOException.class, () -> s.get("k"));
            assertTrue(e instanceof ObjectStoreUnavailableException, e.toString());
            assertTrue(e.getMessage().startsWith("could not read s3://bucket2/down/k after 3 attempts"), e.getMessage());
        }
    }
}
