package org.jpbs.datastore.snapshot;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.digest.Digest;

/**
 * Which chunks the snapshot writers of this JVM reference before their snapshot is visible,
 * for a garbage collection running in the same JVM ({@code docs/gc.md#why-a-backup-running-next-to-gc-never-loses-a-chunk}:
 * GC and writers of one process coexist). A writer's indexes live in its hidden temp directory
 * (not walked) or in memory, and a server writer may reference chunks of the previous snapshot
 * without touching them; if that previous snapshot is pruned while GC runs, only this registry
 * still knows the chunks.
 *
 * <p>GC opens an {@link Epoch} at its start and, at the end of its mark phase, touches
 * everything {@link Epoch#referenced()} lists: the writers open now, and those that committed or
 * aborted since the epoch began (their snapshot may have appeared after the walk passed its
 * group). Thread-safe.
 */
public final class WriterReferences {
    private WriterReferences() {}

    /**
     * The chunks one writer references.
     *
     * @param snapshot the snapshot being written
     * @param digests  live collections of digests (iterate them, do not modify them)
     */
    public record Referenced(BackupSnapshotRef snapshot, List<Collection<Digest>> digests) {}

    private static final class PerStore {
        final Set<SnapshotWriter> open = new LinkedHashSet<>();
        final List<SnapshotWriter> finishedDuringEpochs = new ArrayList<>();
        int epochs;
    }

    private static final Map<Path, PerStore> STORES = new HashMap<>(); // guarded by itself

    private static Path key(Path root) {
        return root.toAbsolutePath().normalize();
    }

    static void opened(Path root, SnapshotWriter w) {
        synchronized (STORES) {
            STORES.computeIfAbsent(key(root), k -> new PerStore()).open.add(w);
        }
    }

    static void finished(Path root, SnapshotWriter w) {
        synchronized (STORES) {
            PerStore s = STORES.get(key(root));
            if (s == null || !s.open.remove(w)) {
                return;
            }
            if (s.epochs > 0) {
                s.finishedDuringEpochs.add(w);
            } else if (s.open.isEmpty()) {
                STORES.remove(key(root));
            }
        }
    }

    /** Opens a GC epoch for the datastore at {@code root}; close it when GC ends. */
    public static Epoch openEpoch(Path root) {
        synchronized (STORES) {
            STORES.computeIfAbsent(key(root), k -> new PerStore()).epochs++;
        }
        return new Epoch(key(root));
    }

    /** The period of one garbage collection. */
    public static final class Epoch implements AutoCloseable {
        private final Path key;
        private boolean closed;

        private Epoch(Path key) {
            this.key = key;
        }

        /** The references of the writers open now or finished since this epoch (or an overlapping one) began. */
        public List<Referenced> referenced() {
            List<SnapshotWriter> writers = new ArrayList<>();
            synchronized (STORES) {
                PerStore s = STORES.get(key);
                if (s != null) {
                    writers.addAll(s.open);
                    writers.addAll(s.finishedDuringEpochs);
                }
            }
            List<Referenced> out = new ArrayList<>();
            for (SnapshotWriter w : writers) {
                out.add(new Referenced(w.ref(), w.referencedChunks()));
            }
            return out;
        }

        /** Ends the epoch. Idempotent. */
        @Override
        public void close() {
            synchronized (STORES) {
                if (closed) {
                    return;
                }
                closed = true;
                PerStore s = STORES.get(key);
                if (s != null && --s.epochs == 0) {
                    s.finishedDuringEpochs.clear();
                    if (s.open.isEmpty()) {
                        STORES.remove(key);
                    }
                }
            }
        }
    }
}
