package org.jpbs.testkit.faults;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.datastore.chunks.ChunkStore;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.SnapshotWriter;
import org.jpbs.testkit.chunks.TestChunks;
import org.jpbs.testkit.chunks.TestChunks.Chunk;

/** Seeded chunks and snapshots for the fault tests: 4 KiB uncompressed chunks, one fixed index per snapshot. */
final class FaultFixtures {
    static final int CHUNK = 4096;
    static final String OWNER = "root@pam";

    private FaultFixtures() {}

    /** Chunks {@code from..to-1} (not stored). */
    static List<Chunk> chunks(long from, long to) {
        List<Chunk> out = new ArrayList<>();
        for (long s = from; s < to; s++) {
            out.add(TestChunks.plain(s, CHUNK, false));
        }
        return out;
    }

    /** Stores the chunks. */
    static void insert(ChunkStore store, List<Chunk> chunks) throws IOException {
        for (Chunk c : chunks) {
            store.insert(c.digest(), c.blob());
        }
    }

    /** Commits a snapshot of {@code vm/<id>} at {@code time} with {@code drive.img.fidx} over the chunks. */
    static BackupSnapshotRef snapshot(Datastore ds, String id, long time, List<Chunk> chunks) throws IOException {
        BackupGroupRef group = BackupGroupRef.parse(BackupNamespace.ROOT, "vm/" + id);
        BackupSnapshotRef ref = new BackupSnapshotRef(group, time);
        Digest[] digests = chunks.stream().map(Chunk::digest).toArray(Digest[]::new);
        try (SnapshotWriter w = ds.beginSnapshot(ref, OWNER)) {
            w.addFixedIndex("drive.img.fidx", new FixedIndex(new UUID(1, 2), time, (long) digests.length * CHUNK, CHUNK,
                    digests));
            return w.commit(new BackupManifest(group.type(), group.id(), time));
        }
    }
}
