package org.jpbs.datastore.config;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.jpbs.datastore.snapshot.Datastore;

/**
 * The in-process datastore cache ({@code docs/datastore-config.md#the-datastore-cache}): name → datastore,
 * built from {@code datastore.cfg}, plus datastores given on the command line (a "static"
 * overlay; a name in the file wins over the same static name).
 *
 * <p>A lookup never reads or parses the config while nothing has changed: it compares the
 * shared generation ({@link ConfigVersions}, bumped by every write through jpbs, one memory
 * read) with the one the cached config was read at, and at most once per second one thread
 * {@code stat}s the file (size, mtime, inode) to notice a hand edit. Only a change re-reads and
 * re-parses the file; unchanged datastores keep their opened {@link Datastore}. Datastores are
 * opened on their first lookup. Dropping a handle costs no config read: it decrements the
 * active-operation counts and, for a datastore in {@code offline} mode, forgets its opened
 * instance after the last operation. A config that does not parse makes every lookup fail
 * with its error until it is fixed. Thread-safe; lookups take no lock on the fast path.
 */
public final class DatastoreCache {
    private static final System.Logger LOG = System.getLogger(DatastoreCache.class.getName());
    /** How often a hand edit of the file is checked for, at most. */
    public static final long CHECK_INTERVAL_NANOS = 1_000_000_000L;

    private final DatastoreConfigStore store;
    private final Map<String, Path> staticStores;
    private final LongSupplier nanoTime;
    private final DatastoreOpener opener;
    private final AtomicLong nextCheck = new AtomicLong();
    private final Map<String, ActiveOps> active = new ConcurrentHashMap<>();
    private final Object reloadLock = new Object();
    private volatile State state;

    /** Running read and write operations of one datastore. */
    static final class ActiveOps {
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger writes = new AtomicInteger();
    }

    /** A loaded config: its generation and stamp, the entries, or the error it gave. */
    private record State(long generation, DatastoreConfigStore.Stamp stamp, Map<String, Entry> entries,
                         DatastoreLookupException error) {}

    /** One configured datastore and its lazily opened instance. */
    private static final class Entry {
        final DatastoreConfig config;
        final boolean isStatic;
        volatile Datastore datastore;

        Entry(DatastoreConfig config, boolean isStatic, Datastore datastore) {
            this.config = config;
            this.isStatic = isStatic;
            this.datastore = datastore;
        }

        Datastore open(DatastoreOpener opener) throws IOException {
            Datastore d = datastore;
            if (d == null) {
                synchronized (this) {
                    d = datastore;
                    if (d == null) {
                        d = opener.open(config);
                        datastore = d;
                    }
                }
            }
            return d;
        }
    }

    /**
     * @param store        the config file
     * @param staticStores datastores from the command line, name → root (may be empty)
     * @param nanoTime     monotonic clock in nanoseconds ({@code System::nanoTime}; tests pass a fake)
     */
    public DatastoreCache(DatastoreConfigStore store, Map<String, Path> staticStores, LongSupplier nanoTime) {
        this(store, staticStores, nanoTime, DatastoreOpener.DIRECTORY);
    }

    /**
     * As {@link #DatastoreCache(DatastoreConfigStore, Map, LongSupplier)}, opening datastores
     * with {@code opener} (which knows the backends, e.g. {@code s3}).
     */
    public DatastoreCache(DatastoreConfigStore store, Map<String, Path> staticStores, LongSupplier nanoTime,
                          DatastoreOpener opener) {
        this.store = store;
        this.opener = java.util.Objects.requireNonNull(opener, "opener");
        Map<String, Path> s = new LinkedHashMap<>();
        staticStores.forEach((k, v) -> s.put(DatastoreConfig.checkName(k), v.toAbsolutePath().normalize()));
        this.staticStores = Collections.unmodifiableMap(s);
        this.nanoTime = nanoTime;
    }

    /** A cache of the config in {@code configDir} without static datastores, on the system clock. */
    public static DatastoreCache open(Path configDir) {
        return new DatastoreCache(DatastoreConfigStore.open(configDir), Map.of(), System::nanoTime);
    }

    /** The config file behind this cache. */
    public DatastoreConfigStore store() {
        return store;
    }

    /**
     * Looks a datastore up for an operation and counts the operation as running until the
     * handle is closed.
     *
     * @throws DatastoreLookupException {@code "no such datastore '<name>'"}, the maintenance
     *                                  refusal, or the config's error
     * @throws IOException              if the datastore cannot be opened (e.g. its path is gone)
     */
    public DatastoreHandle lookup(String name, Operation op) throws IOException {
        Entry e = entry(name);
        Optional<String> refusal = e.config.refusal(op);
        if (refusal.isPresent()) {
            throw new DatastoreLookupException(DatastoreLookupException.Reason.MAINTENANCE, refusal.get());
        }
        Datastore ds = e.open(opener);
        ActiveOps ops = active.computeIfAbsent(name, k -> new ActiveOps());
        if (op == Operation.WRITE) {
            ops.writes.incrementAndGet();
        } else if (op == Operation.READ) {
            ops.reads.incrementAndGet();
        }
        return new DatastoreHandle(this, e.config, ds, op, ops);
    }

    /**
     * The config of one datastore (a lookup-level check: no maintenance refusal except
     * {@code delete}, nothing counted, nothing opened).
     *
     * @throws DatastoreLookupException if it is not configured or the config is broken
     */
    public DatastoreConfig config(String name) throws DatastoreLookupException {
        return entry(name).config;
    }

    /**
     * True if a datastore of that name is configured.
     *
     * @throws DatastoreLookupException if the config cannot be read or parsed
     */
    public boolean knows(String name) throws DatastoreLookupException {
        return current().entries().containsKey(name);
    }

    /** True if a datastore of that name is configured (false also when the config is broken). */
    public boolean exists(String name) {
        try {
            return current().entries().containsKey(name);
        } catch (DatastoreLookupException e) {
            return false;
        }
    }

    /**
     * Every configured datastore: the file's in file order, then the static ones not in the file.
     *
     * @throws DatastoreLookupException if the config cannot be read or parsed
     */
    public List<DatastoreConfig> list() throws DatastoreLookupException {
        List<DatastoreConfig> out = new ArrayList<>();
        current().entries().values().forEach(e -> out.add(e.config));
        return out;
    }

    /** Running operations of a datastore: {@code [reads, writes]}. */
    public int[] activeOperations(String name) {
        ActiveOps o = active.get(name);
        return o == null ? new int[2] : new int[] {o.reads.get(), o.writes.get()};
    }

    /** True if the datastore is currently opened in the cache (test and diagnostics hook). */
    public boolean isOpen(String name) {
        State s = state;
        Entry e = s == null ? null : s.entries().get(name);
        return e != null && e.datastore != null;
    }

    /** How many times the config file was read (see {@link DatastoreConfigStore#reads()}). */
    public long configReads() {
        return store.reads();
    }

    private Entry entry(String name) throws DatastoreLookupException {
        Entry e = current().entries().get(name);
        if (e == null) {
            throw new DatastoreLookupException(DatastoreLookupException.Reason.NOT_FOUND, "no such datastore '" + name + "'");
        }
        Optional<String> refusal = e.config.refusal(Operation.LOOKUP);
        if (refusal.isPresent()) {
            throw new DatastoreLookupException(DatastoreLookupException.Reason.MAINTENANCE, refusal.get());
        }
        return e;
    }

    /** The current state: the cached one unless the generation moved or a due stat check found a change. */
    private State current() throws DatastoreLookupException {
        State s = state;
        long gen = store.generation();
        if (s != null && s.generation() == gen && !handEdited(s)) {
            return s.error() == null ? s : fail(s);
        }
        return reload(s);
    }

    private static State fail(State s) throws DatastoreLookupException {
        throw s.error();
    }

    private boolean handEdited(State s) {
        long now = nanoTime.getAsLong();
        long due = nextCheck.get();
        if (now - due < 0 || !nextCheck.compareAndSet(due, now + CHECK_INTERVAL_NANOS)) {
            return false; // not due yet, or another thread is checking
        }
        try {
            return !store.stamp().equals(s.stamp());
        } catch (IOException e) {
            return true; // re-read and report the problem
        }
    }

    private State reload(State seen) throws DatastoreLookupException {
        synchronized (reloadLock) {
            State s = state;
            if (s != seen && s != null && s.generation() == store.generation()) {
                return s.error() == null ? s : fail(s); // another thread reloaded meanwhile
            }
            long gen = store.generation();
            DatastoreConfigStore.Stamp stamp;
            Map<String, Entry> entries = new LinkedHashMap<>();
            DatastoreLookupException error = null;
            try {
                stamp = store.stamp();
                DatastoreConfigFile file = store.read();
                Map<String, Entry> old = s == null ? Map.of() : s.entries();
                for (DatastoreConfig c : file.datastores()) {
                    entries.put(c.name(), reuse(old.get(c.name()), c, false));
                }
                staticStores.forEach((name, path) -> {
                    DatastoreConfig c = new DatastoreConfig(name, Map.of("path", path.toString()));
                    Entry inFile = entries.get(name);
                    if (inFile == null) {
                        entries.put(name, reuse(old.get(name), c, true));
                    } else if (!inFile.config.path().normalize().equals(path)) {
                        LOG.log(Level.WARNING, "datastore '" + name + "': " + store.file() + " says " + inFile.config.path()
                                + ", the command line " + path + "; using the config file");
                    }
                });
            } catch (IOException | IllegalArgumentException e) {
                stamp = safeStamp();
                error = new DatastoreLookupException(DatastoreLookupException.Reason.CONFIG,
                        "cannot read datastore config: " + e.getMessage());
                LOG.log(Level.ERROR, error.getMessage());
            }
            State n = new State(gen, stamp, Collections.unmodifiableMap(entries), error);
            state = n;
            nextCheck.set(nanoTime.getAsLong() + CHECK_INTERVAL_NANOS);
            if (error != null) {
                throw error;
            }
            return n;
        }
    }

    private DatastoreConfigStore.Stamp safeStamp() {
        try {
            return store.stamp();
        } catch (IOException e) {
            return DatastoreConfigStore.Stamp.MISSING;
        }
    }

    /** Keeps an unchanged entry (with its opened datastore); reuses the instance if only options changed. */
    private static Entry reuse(Entry old, DatastoreConfig c, boolean isStatic) {
        if (old == null) {
            return new Entry(c, isStatic, null);
        }
        if (old.config.equals(c) && old.isStatic == isStatic) {
            return old;
        }
        Datastore d = old.datastore;
        boolean sameStore = d != null && old.config.path().equals(c.path())
                && old.config.tuning().syncLevel() == c.tuning().syncLevel()
                && old.config.property("backend").equals(c.property("backend"));
        boolean offline = c.maintenanceMode().map(m -> m.type() != MaintenanceMode.Type.READ_ONLY).orElse(false);
        return new Entry(c, isStatic, sameStore && !offline ? d : null);
    }

    /** Called by {@link DatastoreHandle#close()}: no config read, just counters and offline eviction. */
    void release(String name, Operation op, ActiveOps ops) {
        int left;
        if (op == Operation.WRITE) {
            left = ops.writes.decrementAndGet() + ops.reads.get();
        } else if (op == Operation.READ) {
            left = ops.reads.decrementAndGet() + ops.writes.get();
        } else {
            left = ops.reads.get() + ops.writes.get();
        }
        if (left == 0) {
            State s = state; // the cached state, as it is: dropping a handle reads no config
            Entry e = s == null ? null : s.entries().get(name);
            if (e != null && e.config.maintenanceMode().map(m -> m.type() != MaintenanceMode.Type.READ_ONLY).orElse(false)) {
                e.datastore = null; // offline: close (forget) it after its last operation
            }
        }
    }
}
