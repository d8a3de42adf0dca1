package org.jpbs.server.rrd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Map;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.config.DatastoreCache;
import org.jpbs.datastore.config.DatastoreConfigStore;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link UsageHistory} ({@code docs/api.md#metrics}): the history and estimate of
 * {@code status/datastore-usage} are computed once per change of the archives or of the window
 * and then served from memory; the values are used/total per 30-minute slot; the estimate
 * needs a day of points; the sampler keeps the entries of configured datastores ready.
 */
class UsageHistoryTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void anEntryIsReusedUntilASampleOrTheWindowChanges() throws Exception {
        RrdStore rrd = RrdStore.forConfigDir(tmp.resolve("config"));
        long now = 1_800_000_000L;
        UsageHistory.Entry empty = rrd.usage().get("s1", now);
        JsonNode h = JSON.readTree(empty.json());
        assertEquals(UsageHistory.POINTS, h.size());
        assertTrue(h.get(0).isNull() && h.get(UsageHistory.POINTS - 1).isNull());
        assertTrue(empty.estimate().isEmpty());
        assertEquals(UsageHistory.start(now), empty.start());
        assertSame(empty, rrd.usage().get("s1", now + 1), "nothing changed: the same entry");

        rrd.update("datastore/s1/total", now, 1000);
        rrd.update("datastore/s1/used", now, 250);
        UsageHistory.Entry one = rrd.usage().get("s1", now);
        assertNotSame(empty, one);
        assertEquals(0.25, JSON.readTree(one.json()).get(UsageHistory.POINTS - 1).asDouble());
        assertSame(one, rrd.usage().get("s1", now));
        assertNotSame(one, rrd.usage().get("s1", now + UsageHistory.DELTA), "the window moved on");
    }

    @Test
    void theEstimateNeedsADayOfPointsAndFollowsTheGrowth() throws Exception {
        RrdStore rrd = RrdStore.forConfigDir(tmp.resolve("config"));
        long t0 = 1_800_000_000L / UsageHistory.DELTA * UsageHistory.DELTA;
        long now = t0;
        for (int i = 0; i < 48; i++) { // a day at 30 minutes, from 10% up by 0.1% per point
            now = t0 + i * UsageHistory.DELTA;
            rrd.update("datastore/s1/total", now, 1_000_000);
            rrd.update("datastore/s1/used", now, 100_000 + 1_000 * i);
        }
        assertTrue(rrd.usage().get("s1", now).estimate().isEmpty(), "47 slots: less than a day");
        now += UsageHistory.DELTA;
        rrd.update("datastore/s1/total", now, 1_000_000);
        rrd.update("datastore/s1/used", now, 100_000 + 1_000 * 48);
        long full = rrd.usage().get("s1", now).estimate().orElseThrow();
        long expected = t0 + (long) (900 * UsageHistory.DELTA); // 0.1 + 0.001 * n = 1.0 at n = 900
        assertTrue(Math.abs(full - expected) < 60, full + " vs " + expected);
    }

    @Test
    void theSamplerKeepsTheEntriesOfConfiguredDatastoresReady() throws Exception {
        Path config = tmp.resolve("config");
        DatastorePool.create(tmp.resolve("store1"), SyncLevel.NONE);
        DatastoreCache stores = new DatastoreCache(DatastoreConfigStore.open(config), Map.of("store1", tmp.resolve("store1")),
                System::nanoTime);
        RrdStore rrd = RrdStore.forConfigDir(config);
        long now = System.currentTimeMillis() / 1000;
        RrdSampler.manual(rrd, stores, config).sample(now);
        UsageHistory.Entry e = rrd.usage().get("store1", now);
        double u = JSON.readTree(e.json()).get(UsageHistory.POINTS - 1).asDouble();
        assertTrue(u > 0 && u <= 1, "the sample is in the history: " + u);
        assertEquals(rrd.version("datastore/store1/used"), e.usedVersion(), "computed after the sample");
    }
}
