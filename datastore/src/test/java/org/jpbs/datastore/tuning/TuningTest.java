package org.jpbs.datastore.tuning;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.jpbs.datastore.config.DatastoreTuning;
import org.junit.jupiter.api.Test;

class TuningTest {
    @Test
    void fromDatastoreCfgTuning() {
        assertEquals(Tuning.DEFAULT, Tuning.from(DatastoreTuning.DEFAULTS));
        Tuning t = Tuning.from(DatastoreTuning.parse(
                "chunk-order=none,gc-atime-cutoff=60,gc-cache-capacity=0,gc-chunk-metadata-prefetch=1,gc-atime-safety-check=0"));
        assertEquals(new Tuning(false, Duration.ofMinutes(60), 0, true, ChunkOrder.NONE, Tuning.DEFAULT_THREADS), t);
    }
}
