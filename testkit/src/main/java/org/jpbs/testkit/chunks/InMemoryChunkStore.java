package org.jpbs.testkit.chunks;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.MissingChunkException;
import org.jpbs.datastore.chunks.ChunkInsertRule;
import org.jpbs.datastore.chunks.ChunkStore;

/**
 * A {@link ChunkStore} in memory, for tests of everything above the store: the same insert
 * rule ({@link ChunkInsertRule}), the same "last used" semantics (set by a write, a kept
 * duplicate and a touch, read from an injectable {@link Clock}), the same removal contract. A
 * digest's decisions run under one of 64 striped locks, as in the directory store. Tests can
 * plant raw bytes ({@link #plant}) and age chunks ({@link #setLastUsed}).
 */
public final class InMemoryChunkStore implements ChunkStore {
    private static final int STRIPES = 64;

    private record Stored(byte[] raw, Instant lastUsed) {}

    private final String name;
    private final Clock clock;
    private final Map<Digest, Stored> chunks = new ConcurrentHashMap<>();
    private final Map<String, byte[]> bad = new ConcurrentHashMap<>();
    private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];

    /** An empty store named {@code name} (in messages) with the system clock. */
    public InMemoryChunkStore(String name) {
        this(name, Clock.systemUTC());
    }

    /** An empty store whose "last used" times come from {@code clock}. */
    public InMemoryChunkStore(String name, Clock clock) {
        this.name = name;
        this.clock = clock;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantLock();
        }
    }

    private ReentrantLock lockFor(Digest digest) {
        return stripes[(digest.hashCode() & 0x7fffffff) % STRIPES];
    }

    @Override
    public InsertResult insert(Digest digest, DataBlob blob) throws IOException {
        ChunkInsertRule.checkBlob(digest, blob);
        ReentrantLock lock = lockFor(digest);
        lock.lock();
        try {
            Stored old = chunks.get(digest);
            ChunkInsertRule.Found found = ChunkInsertRule.classify(old == null ? null : old.raw(), location(digest));
            if (ChunkInsertRule.keep(digest, found, blob)) {
                chunks.put(digest, new Stored(old.raw(), clock.instant()));
                return new InsertResult(true, old.raw().length);
            }
            byte[] raw = blob.raw().clone();
            chunks.put(digest, new Stored(raw, clock.instant()));
            return new InsertResult(false, raw.length);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean exists(Digest digest) {
        Stored s = chunks.get(digest);
        return s != null && s.raw().length > 0;
    }

    @Override
    public boolean touch(Digest digest) {
        ReentrantLock lock = lockFor(digest);
        lock.lock();
        try {
            Stored s = chunks.get(digest);
            if (s == null) {
                return false;
            }
            chunks.put(digest, new Stored(s.raw(), clock.instant()));
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public DataBlob read(Digest digest) throws IOException {
        Stored s = chunks.get(digest);
        if (s == null) {
            throw new MissingChunkException(digest, "in-memory store " + name);
        }
        if (s.raw().length == 0) {
            throw new MissingChunkException(digest, "in-memory store " + name + ", empty chunk");
        }
        return DataBlob.wrap(s.raw().clone(), location(digest));
    }

    @Override
    public String location(Digest digest) {
        return "memory:" + name + "/" + digest.hex();
    }

    @Override
    public Optional<String> renameCorrupt(Digest digest) {
        ReentrantLock lock = lockFor(digest);
        lock.lock();
        try {
            Stored s = chunks.remove(digest);
            if (s == null) {
                return Optional.empty();
            }
            String target = digest.hex() + ".9.bad";
            for (int n = 0; n <= 9; n++) {
                if (!bad.containsKey(digest.hex() + "." + n + ".bad")) {
                    target = digest.hex() + "." + n + ".bad";
                    break;
                }
            }
            bad.put(target, s.raw());
            return Optional.of(target);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void forEachChunk(ChunkVisitor visitor) throws IOException {
        List<Map.Entry<Digest, Stored>> snapshot = new ArrayList<>(chunks.entrySet());
        for (Map.Entry<Digest, Stored> e : snapshot) {
            visitor.visit(new StoredChunk(e.getKey(), e.getValue().raw().length, e.getValue().lastUsed()));
        }
    }

    @Override
    public Removal removeIfUnused(Digest digest, Instant cutoff) {
        ReentrantLock lock = lockFor(digest);
        lock.lock();
        try {
            Stored s = chunks.get(digest);
            if (s == null) {
                return Removal.ABSENT;
            }
            if (!s.lastUsed().isBefore(cutoff)) {
                return Removal.KEPT;
            }
            chunks.remove(digest);
            return Removal.REMOVED;
        } finally {
            lock.unlock();
        }
    }

    /** Stores {@code raw} under {@code digest} as it is (no insert rule): a damaged, empty or foreign copy. */
    public void plant(Digest digest, byte[] raw) {
        chunks.put(digest, new Stored(raw.clone(), clock.instant()));
    }

    /** Sets the last use of a stored chunk (as a test sets a chunk file's atime). */
    public void setLastUsed(Digest digest, Instant lastUsed) {
        chunks.computeIfPresent(digest, (d, s) -> new Stored(s.raw(), lastUsed));
    }

    /** The names of the corrupt copies set aside by {@link #renameCorrupt}. */
    public java.util.Set<String> badCopies() {
        return java.util.Set.copyOf(bad.keySet());
    }

    @Override
    public String toString() {
        return "InMemoryChunkStore[" + name + "]";
    }
}
