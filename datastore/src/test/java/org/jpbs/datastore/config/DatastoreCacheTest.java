package org.jpbs.datastore.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.jpbs.datastore.chunks.SyncLevel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The datastore cache ({@code docs/datastore-config.md#the-datastore-cache}): config reads are counted through
 * the store's reader hook; time is a fake monotonic clock, so "within a second" is exact.
 */
class DatastoreCacheTest {
    @TempDir
    Path tmp;
    Path config;
    final AtomicLong reads = new AtomicLong();
    final AtomicLong clock = new AtomicLong(1_000_000_000_000L);
    DatastoreConfigStore store;
    DatastoreCache cache;

    /** A datastore root as far as opening it is concerned (.chunks/0000 and ffff); lookups never look further. */
    static Path fakeDatastore(Path p) throws IOException {
        Files.createDirectories(p.resolve(".chunks/0000"));
        Files.createDirectories(p.resolve(".chunks/ffff"));
        return p;
    }

    @BeforeEach
    void setUp() throws IOException {
        config = tmp.resolve("config");
        store = DatastoreConfigStore.open(config, f -> {
            reads.incrementAndGet();
            return Files.readAllBytes(f);
        });
        cache = new DatastoreCache(store, Map.of(), clock::get);
        for (String n : new String[] {"store1", "store2"}) {
            Path p = fakeDatastore(tmp.resolve(n));
            store.update(f -> f.withDatastore(new DatastoreConfig(n, Map.of("path", p.toString()))));
        }
        reads.set(0);
    }

    void advance(long nanos) {
        clock.addAndGet(nanos);
    }

    @Test
    void anUnchangedConfigIsReadOnce() throws Exception {
        for (int i = 0; i < 1000; i++) {
            try (DatastoreHandle h = cache.lookup(i % 2 == 0 ? "store1" : "store2", Operation.READ)) {
                assertEquals(i % 2 == 0 ? "store1" : "store2", h.name());
            }
            if (i % 100 == 99) {
                advance(DatastoreCache.CHECK_INTERVAL_NANOS); // the once-a-second stat finds nothing
            }
        }
        assertEquals(1, reads.get(), "one read for the first lookup, none after");
        assertTrue(cache.exists("store1"));
        assertFalse(cache.exists("nope"));
        assertEquals(1, reads.get());
        DatastoreLookupException e = assertThrows(DatastoreLookupException.class, () -> cache.lookup("nope", Operation.READ));
        assertEquals("no such datastore 'nope'", e.getMessage());
        assertEquals(DatastoreLookupException.Reason.NOT_FOUND, e.reason());
    }

    @Test
    void aWriteThroughJpbsIsSeenByTheNextLookup() throws Exception {
        assertEquals(SyncLevel.FILESYSTEM, cache.lookup("store1", Operation.READ).datastore().syncLevel());
        store.update(f -> f.withProperty("store1", "tuning", "sync-level=none"));
        long before = reads.get();
        try (DatastoreHandle h = cache.lookup("store1", Operation.READ)) {
            assertEquals(SyncLevel.NONE, h.datastore().syncLevel(), "no clock advance needed");
            assertEquals(SyncLevel.NONE, h.config().tuning().syncLevel());
        }
        assertEquals(before + 1, reads.get());
        // another store object on the same directory (as another process would have) bumps the same generation
        DatastoreConfigStore other = DatastoreConfigStore.open(config);
        Path p3 = fakeDatastore(tmp.resolve("store3"));
        other.update(f -> f.withDatastore(new DatastoreConfig("store3", Map.of("path", p3.toString()))));
        try (DatastoreHandle h = cache.lookup("store3", Operation.WRITE)) {
            assertEquals(p3, h.datastore().root());
        }
        assertTrue(store.generation() >= 4);
    }

    @Test
    void aHandEditIsSeenWithinASecond() throws Exception {
        cache.lookup("store1", Operation.READ).close();
        String text = Files.readString(store.file());
        Files.writeString(store.file(), text.replace("datastore: store2", "datastore: renamed"));
        advance(DatastoreCache.CHECK_INTERVAL_NANOS - 1);
        assertTrue(cache.exists("store2"), "not checked again before the second is over");
        advance(1);
        assertFalse(cache.exists("store2"), "seen one second after the last check");
        assertTrue(cache.exists("renamed"));
        assertEquals(2, reads.get());
    }

    @Test
    void unchangedDatastoresKeepTheirOpenedInstance() throws Exception {
        var first = cache.lookup("store1", Operation.READ);
        first.close();
        store.update(f -> f.withProperty("store2", "comment", "changed"));
        try (var again = cache.lookup("store1", Operation.READ)) {
            assertSame(first.datastore(), again.datastore());
        }
    }

    @Test
    void offlineRefusesReadAndWriteReadOnlyRefusesWrite() throws Exception {
        DatastoreHandle running = cache.lookup("store1", Operation.WRITE); // e.g. a backup already running
        store.update(f -> f.withProperty("store1", "maintenance-mode", "read-only,message=moving disks"));
        DatastoreLookupException e = assertThrows(DatastoreLookupException.class, () -> cache.lookup("store1", Operation.WRITE));
        assertEquals("datastore 'store1' is in read-only maintenance mode: moving disks", e.getMessage());
        assertEquals(DatastoreLookupException.Reason.MAINTENANCE, e.reason());
        try (DatastoreHandle r = cache.lookup("store1", Operation.READ)) {
            assertEquals("store1", r.name());
        }
        assertEquals(1, cache.activeOperations("store1")[1], "the running write goes on");

        store.update(f -> f.withProperty("store1", "maintenance-mode", "offline,message=disk swap"));
        for (Operation op : new Operation[] {Operation.READ, Operation.WRITE}) {
            assertEquals("datastore 'store1' is in offline maintenance mode: disk swap",
                    assertThrows(DatastoreLookupException.class, () -> cache.lookup("store1", op)).getMessage());
        }
        assertEquals("store1", cache.config("store1").name(), "lookups (in-memory checks) still work");
        long readsBefore = reads.get();
        running.close();
        running.close();
        assertEquals(readsBefore, reads.get(), "dropping the last handle reads no config");
        assertEquals(0, cache.activeOperations("store1")[1]);
        assertFalse(cache.isOpen("store1"), "an offline datastore is closed after its last operation");

        store.update(f -> f.withProperty("store1", "maintenance-mode", null));
        cache.lookup("store1", Operation.WRITE).close();
        assertTrue(cache.isOpen("store1"));
    }

    @Test
    void staticDatastoresAndABrokenConfig() throws Exception {
        Path extra = fakeDatastore(tmp.resolve("extra"));
        DatastoreCache c = new DatastoreCache(store, Map.of("extra", extra, "store1", tmp.resolve("elsewhere")), clock::get);
        assertEquals(List.of("store1", "store2", "extra"), c.list().stream().map(DatastoreConfig::name).toList());
        assertEquals(tmp.resolve("store1"), c.lookup("store1", Operation.READ).datastore().root(), "the file wins");
        assertEquals(extra, c.lookup("extra", Operation.READ).datastore().root());

        Files.writeString(store.file(), "datastore: store1\n\tpath relative\n");
        advance(DatastoreCache.CHECK_INTERVAL_NANOS);
        DatastoreLookupException e = assertThrows(DatastoreLookupException.class, () -> c.lookup("store1", Operation.READ));
        assertEquals(DatastoreLookupException.Reason.CONFIG, e.reason());
        assertTrue(e.getMessage().contains("path 'relative' is not absolute"), e.getMessage());
        long r = reads.get();
        assertThrows(DatastoreLookupException.class, () -> c.lookup("store2", Operation.READ));
        assertEquals(r, reads.get(), "a broken file is not re-read until it changes");
        assertThrows(IllegalArgumentException.class, () -> store.update(f -> f), "a broken file is not rewritten");
    }

    @Test
    void parallelLookupsWhileTheConfigChanges() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> fs = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                fs.add(pool.submit(() -> {
                    int ok = 0;
                    for (int i = 0; i < 2000; i++) {
                        try (DatastoreHandle h = cache.lookup(i % 2 == 0 ? "store1" : "store2", Operation.READ)) {
                            ok += h.datastore() != null ? 1 : 0;
                        }
                    }
                    return ok;
                }));
            }
            for (int i = 0; i < 20; i++) {
                String v = "comment " + i;
                store.update(f -> f.withProperty("store2", "comment", v));
            }
            for (Future<Integer> f : fs) {
                assertEquals(2000, f.get());
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(0, cache.activeOperations("store1")[0]);
        assertTrue(reads.get() <= 1 + 20 * 2, "at most one read per lookup generation plus the writers' own: " + reads.get());
        assertEquals("comment 19", cache.config("store2").comment().orElseThrow());
    }
}
