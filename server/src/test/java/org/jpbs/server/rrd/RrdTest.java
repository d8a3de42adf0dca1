package org.jpbs.server.rrd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fixed-size rings: consolidation, gaps, wrap-around, bounded files that survive a restart. */
class RrdTest {
    static final long T0 = 1_700_000_000L / 86400 * 86400; // a midnight: slots of every resolution start here

    @Test
    void minuteSlotsAverageAndMaxTheirSamplesAndCoarserOnesConsolidate() {
        Rrd r = new Rrd();
        r.update(T0, 10);
        r.update(T0 + 30, 20); // same minute
        r.update(T0 + 60, 40);
        Rrd.Series avg = r.extract(60, T0, T0 + 120, Rrd.Cf.AVERAGE);
        assertEquals(T0, avg.start());
        assertEquals(15.0, avg.values()[0]);
        assertEquals(40.0, avg.values()[1]);
        assertTrue(Double.isNaN(avg.values()[2]), "nothing sampled in the third minute");
        assertEquals(20.0, r.extract(60, T0, T0, Rrd.Cf.MAX).values()[0]);
        assertEquals(70.0 / 3, r.extract(1800, T0, T0, Rrd.Cf.AVERAGE).values()[0], 1e-9);
        assertEquals(40.0, r.extract(21600, T0, T0, Rrd.Cf.MAX).values()[0]);
    }

    @Test
    void aRingKeepsOnlyItsLastSlotsAndClearsWhatItSkips() {
        Rrd r = new Rrd();
        for (int i = 0; i < 1500; i++) { // 1,500 minutes into a ring of 1,440
            r.update(T0 + 60L * i, i);
        }
        Rrd.Series s = r.extract(60, T0, T0 + 60L * 1499, Rrd.Cf.AVERAGE);
        assertTrue(Double.isNaN(s.values()[59]), "overwritten minute reads as no data");
        assertEquals(60.0, s.values()[60]);
        assertEquals(1499.0, s.values()[1499]);
        r.update(T0 + 60L * 1600, 7); // a gap of 100 minutes
        Rrd.Series after = r.extract(60, T0 + 60L * 1500, T0 + 60L * 1600, Rrd.Cf.AVERAGE);
        assertTrue(Double.isNaN(after.values()[50]), "skipped minute cleared, not the old value of its slot");
        assertEquals(7.0, after.values()[100]);
        r.update(T0, 99); // older than the ring's last update: ignored
        assertEquals(7.0, r.extract(60, T0 + 60L * 1600, T0 + 60L * 1600, Rrd.Cf.AVERAGE).values()[0]);
    }

    @Test
    void filesSurviveARestartAndStayTheSameSize(@TempDir Path config) throws Exception {
        RrdStore store = RrdStore.forConfigDir(config);
        store.update("datastore/s/used", T0, 1000);
        store.flush();
        Path f = config.resolve("rrdb/datastore/s/used");
        long size = Files.size(f);
        for (int i = 1; i < 5000; i++) {
            store.update("datastore/s/used", T0 + 60L * i, 1000 + i);
        }
        store.dropCache(); // flushes, then forgets: the next read is from the file, as after a restart
        assertEquals(size, Files.size(f), "fixed size whatever the number of samples");
        assertTrue(size < 200_000, "size " + size);
        assertEquals(5999.0, store.extract("datastore/s/used", 60, T0 + 60L * 4999, T0 + 60L * 4999, Rrd.Cf.AVERAGE).values()[0]);
        assertEquals(RrdStore.forConfigDir(config.resolve(".")), store, "one store per config directory");
    }

    @Test
    void diskStatsFindTheDeviceOfTheLongestMountPoint() {
        var mounts = java.util.List.of("22 1 8:1 / / rw - ext4 /dev/sda1 rw", "23 22 0:5 / /tmp rw - tmpfs tmpfs rw",
                "24 22 8:16 / /srv/backup rw - ext4 /dev/sdb rw");
        assertEquals("8:16", DiskStats.device(Path.of("/srv/backup/store1"), mounts).orElseThrow());
        assertEquals("8:1", DiskStats.device(Path.of("/srv/other"), mounts).orElseThrow());
        assertTrue(DiskStats.device(Path.of("/tmp/x"), mounts).isEmpty(), "tmpfs has no device");
        DiskStats d = DiskStats.parse("8:16", java.util.List.of(
                "   8      16 sdb 100 0 2000 50 300 0 4000 60 0 70 110 0 0 0 0")).orElseThrow();
        assertEquals(new DiskStats(100, 2000 * 512, 300, 4000 * 512, 70), d);
    }
}
