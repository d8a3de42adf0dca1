package org.jpbs.s3.store;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.jpbs.s3.testing.FaultProxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The same contract through a proxy that drops or truncates one answer in 50: the retries make
 * every case pass unchanged.
 */
class S3ChunkStoreFaultContractTest extends S3ChunkStoreContractTest {
    static FaultProxy proxy;

    @BeforeAll
    static void startProxy() throws IOException {
        proxy = new FaultProxy(server.port(), 50, 19);
    }

    @AfterAll
    static void stopProxy() throws IOException {
        System.err.println("fault proxy: " + proxy);
        assertTrue(proxy.faults() > 0, "faults were injected: " + proxy);
        proxy.close();
    }

    @Override
    protected int port() {
        return proxy.port();
    }
}
