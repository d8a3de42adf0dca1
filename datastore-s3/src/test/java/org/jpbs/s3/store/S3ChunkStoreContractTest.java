package org.jpbs.s3.store;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import org.jpbs.core.digest.Digest;
import org.jpbs.datastore.chunks.ChunkStore;
import org.jpbs.s3.client.S3Connector;
import org.jpbs.s3.client.S3Options;
import org.jpbs.s3.testing.TestS3Server;
import org.jpbs.testkit.chunks.ChunkStoreContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chunk-store contract of the test kit, unchanged, against {@link S3ChunkStore} on a real
 * S3 server (s3proxy on loopback): a fresh datastore prefix and cache per test, a cache bound of
 * 64 KiB so that evictions happen.
 */
class S3ChunkStoreContractTest extends ChunkStoreContract {
    @TempDir
    static Path tmp;
    static TestS3Server server;
    private static int n;
    private S3ChunkStore s3;

    @BeforeAll
    static void start() throws Exception {
        server = TestS3Server.start(tmp, null, "contract");
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    /** The port the stores connect to (the fault variant puts a proxy in between). */
    protected int port() {
        return server.port();
    }

    @Override
    protected ChunkStore newStore() throws IOException {
        String name = "store" + (++n);
        s3 = new S3ChunkStore(S3Connector.open(server.endpoint("ep1", port()), "contract", name, S3Options.defaults()),
                tmp.resolve(name).resolve(".chunks"), 64 << 10, Clock.systemUTC());
        return s3;
    }

    @AfterEach
    void closeStore() {
        if (s3 != null) {
            s3.close();
            s3.objects().close();
        }
    }

    @Override
    protected void plant(Digest digest, byte[] raw) throws IOException {
        s3.plant(digest, raw);
    }

    @Override
    protected void setLastUsed(Digest digest, Instant lastUsed) throws IOException {
        s3.setLastUsed(digest, lastUsed);
    }
}
