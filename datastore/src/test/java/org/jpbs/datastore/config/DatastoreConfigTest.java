package org.jpbs.datastore.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.jpbs.datastore.chunks.SyncLevel;
import org.junit.jupiter.api.Test;

/** The typed view: tuning with defaults, maintenance modes and their refusals, keep options, validation. */
class DatastoreConfigTest {
    /** The file PBS 3.1.2 wrote (vectors real-pbs/config/datastore.cfg), inline so the test always runs. */
    static final String PBS = "datastore: store1\n\tmaintenance-mode read-only,message=moving disks\n\tpath /srv/pbs/store1\n\n"
            + "datastore: golden\n\tcomment golden test datastore\n\tgc-schedule daily\n\tpath /srv/pbs/golden\n"
            + "\ttuning chunk-order=none,sync-level=file\n";

    @Test
    void readsWhatPbsWrote() {
        DatastoreConfigFile f = DatastoreConfigFile.parse(PBS, "datastore.cfg");
        DatastoreConfig store1 = f.datastore("store1").orElseThrow();
        DatastoreConfig golden = f.datastore("golden").orElseThrow();
        assertEquals(Path.of("/srv/pbs/store1"), store1.path());
        MaintenanceMode mm = store1.maintenanceMode().orElseThrow();
        assertEquals(MaintenanceMode.Type.READ_ONLY, mm.type());
        assertEquals(Optional.of("moving disks"), mm.message());
        assertEquals("read-only,message=moving disks", mm.format());
        // the refusal the real PBS answered (vectors real-pbs/README.md)
        assertEquals(Optional.of("datastore 'store1' is in read-only maintenance mode: moving disks"),
                store1.refusal(Operation.WRITE));
        assertEquals(Optional.empty(), store1.refusal(Operation.READ));

        assertEquals(Optional.of("golden test datastore"), golden.comment());
        assertEquals(Optional.of("daily"), golden.gcSchedule());
        DatastoreTuning t = golden.tuning();
        assertEquals(DatastoreTuning.ChunkOrder.NONE, t.chunkOrder());
        assertEquals(SyncLevel.FILE, t.syncLevel());
        assertEquals(1445, t.gcAtimeCutoffMinutes(), "default 24 h 5 min");
        assertTrue(t.gcAtimeSafetyCheck());
        assertEquals(1_048_576, t.gcCacheCapacity());
        assertFalse(t.gcChunkMetadataPrefetch());
        assertEquals("chunk-order=none,sync-level=file", t.format());
        assertTrue(golden.keep().isEmpty());
        assertEquals(PBS, f.text());
    }

    @Test
    void tuningKeys() {
        DatastoreTuning t = DatastoreTuning.parse("chunk-order=inode,sync-level=none,gc-atime-safety-check=0,"
                + "gc-atime-cutoff=60,gc-cache-capacity=0,gc-chunk-metadata-prefetch=true,default-verification-workers=4");
        assertEquals(DatastoreTuning.ChunkOrder.INODE, t.chunkOrder());
        assertEquals(SyncLevel.NONE, t.syncLevel());
        assertFalse(t.gcAtimeSafetyCheck());
        assertEquals(60, t.gcAtimeCutoffMinutes());
        assertEquals(0, t.gcCacheCapacity());
        assertTrue(t.gcChunkMetadataPrefetch());
        assertEquals("4", t.raw().get("default-verification-workers"), "unknown keys are kept");
        assertEquals("sync-level=none,gc-atime-safety-check=0,gc-atime-cutoff=60,gc-cache-capacity=0,"
                + "gc-chunk-metadata-prefetch=true,default-verification-workers=4,chunk-order=none",
                t.with("chunk-order", null).with("chunk-order", "none").format());
        for (String[] bad : new String[][] {
            {"sync-level=fast", "tuning: unknown sync-level 'fast' (expected none, file or filesystem)"},
            {"chunk-order=random", "tuning: chunk-order 'random' is not one of inode, none"},
            {"gc-atime-cutoff=0", "tuning: gc-atime-cutoff: value must have a minimum value of 1 (got 0)"},
            {"gc-cache-capacity=-1", "tuning: gc-cache-capacity: value must have a minimum value of 0 (got -1)"},
            {"gc-atime-safety-check=maybe", "tuning: gc-atime-safety-check: Unable to parse boolean option."},
            {"sync-level", "tuning: expected 'key=value' in 'sync-level'"},
            {"sync-level=file,sync-level=none", "tuning: duplicate key 'sync-level'"}}) {
            assertEquals(bad[1], assertThrows(IllegalArgumentException.class, () -> DatastoreTuning.parse(bad[0])).getMessage());
        }
    }

    @Test
    void maintenanceModesAndWhatTheyAllow() {
        MaintenanceMode off = MaintenanceMode.parse("type=offline,message=disk%20swap");
        assertEquals(Optional.of("disk swap"), off.message());
        assertEquals(Optional.empty(), off.refusal("s1", Operation.LOOKUP));
        assertEquals(Optional.of("datastore 's1' is in offline maintenance mode: disk swap"), off.refusal("s1", Operation.READ));
        assertEquals(Optional.of("datastore 's1' is in offline maintenance mode: disk swap"), off.refusal("s1", Operation.WRITE));
        MaintenanceMode ro = MaintenanceMode.parse("read-only");
        assertEquals(Optional.of("datastore 's1' is in read-only maintenance mode"), ro.refusal("s1", Operation.WRITE));
        assertEquals(Optional.empty(), ro.refusal("s1", Operation.READ));
        assertEquals(Optional.of("datastore 's1' is being deleted"),
                MaintenanceMode.parse("delete").refusal("s1", Operation.LOOKUP));
        assertEquals("maintenance-mode: unknown type 'sleeping' (expected read-only, offline, unmount or delete)",
                assertThrows(IllegalArgumentException.class, () -> MaintenanceMode.parse("sleeping")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> MaintenanceMode.parse("offline,message=" + "x".repeat(65)));
        assertThrows(IllegalArgumentException.class, () -> MaintenanceMode.parse("offline,reason=x"));
        assertEquals("a%2Cb%25c", PropertyString.percentEncode("a,b%c"));
        assertEquals("a,b%c", PropertyString.percentDecode("a%2Cb%25c"));
        assertEquals(Map.of("message", "x, y", "type", "offline"),
                PropertyString.parse("mm", "offline,message=\"x, y\"", "type"));
    }

    @Test
    void validation() {
        assertEquals("invalid datastore name 'ab' (3..32 characters: letters, digits, '_', and after the first also '.' and '-')",
                assertThrows(IllegalArgumentException.class, () -> new DatastoreConfig("ab", Map.of("path", "/x"))).getMessage());
        assertEquals("datastore 'abc': missing 'path'",
                assertThrows(IllegalArgumentException.class, () -> new DatastoreConfig("abc", Map.of())).getMessage());
        assertEquals("datastore 'abc': path 'rel/x' is not absolute", assertThrows(IllegalArgumentException.class,
                () -> new DatastoreConfig("abc", Map.of("path", "rel/x"))).getMessage());
        assertEquals("datastore 'abc': keep-daily: value must have a minimum value of 1 (got 0)", assertThrows(IllegalArgumentException.class,
                () -> new DatastoreConfig("abc", Map.of("path", "/x", "keep-daily", "0"))).getMessage());
        DatastoreConfig c = new DatastoreConfig("abc", Map.of("path", "/x", "keep-daily", "7", "keep-last", "3",
                "prune-schedule", "mon..fri 8..17,22:0/15"));
        assertEquals(7, c.keep().daily().orElseThrow());
        assertEquals(3, c.keep().last().orElseThrow());
        assertTrue(c.keep().yearly().isEmpty());
        String file = "datastore: abc\n\tpath /x\n\ttuning sync-level=sometimes\n";
        assertEquals("datastore.cfg: datastore 'abc': tuning: unknown sync-level 'sometimes' (expected none, file or filesystem)",
                assertThrows(IllegalArgumentException.class, () -> DatastoreConfigFile.parse(file, "datastore.cfg")).getMessage());
        DatastoreConfigFile f = DatastoreConfigFile.parse("datastore: abc\n\tpath /x\n", "d");
        assertThrows(IllegalArgumentException.class, () -> f.withProperty("abc", "path", null), "path is required");
        assertEquals("path /x is already used by datastore 'abc'", assertThrows(IllegalArgumentException.class,
                () -> f.withDatastore(new DatastoreConfig("other", Map.of("path", "/x")))).getMessage());
        // PBS refuses overlapping paths, either way round, with its text; a prefix of a name is no nesting
        assertEquals("nested datastores not allowed: 'abc' already in \"/x\"", assertThrows(IllegalArgumentException.class,
                () -> f.withDatastore(new DatastoreConfig("inner", Map.of("path", "/x/y/z")))).getMessage());
        assertEquals("nested datastores not allowed: 'abc' already in \"/x\"", assertThrows(IllegalArgumentException.class,
                () -> f.withDatastore(new DatastoreConfig("inner", Map.of("path", "/x/./y/../y")))).getMessage());
        DatastoreConfigFile deep = DatastoreConfigFile.parse("datastore: abc\n\tpath /srv/a/b\n", "d");
        assertEquals("nested datastores not allowed: 'abc' already in \"/srv/a/b\"", assertThrows(
                IllegalArgumentException.class, () -> deep.withDatastore(new DatastoreConfig("outer", Map.of("path", "/srv"))))
                .getMessage());
        assertTrue(deep.withDatastore(new DatastoreConfig("sibling", Map.of("path", "/srv/a/bb"))).datastore("sibling").isPresent());
        assertTrue(deep.withDatastore(new DatastoreConfig("sibling", Map.of("path", "/srv/ab"))).datastore("sibling").isPresent());
    }
}
