package org.jpbs.datastore.prune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.time.ZoneOffset;
import java.util.List;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.datastore.gc.GcFixture;
import org.jpbs.datastore.snapshot.SnapshotInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Prune on a real store: dry run, removal oldest first, protected snapshots, group removal. */
@ExtendWith(GcFixture.Shared.class)
class PrunerTest {
    @Test
    void dryRunThenPrune() throws IOException {
        GcFixture fx = GcFixture.shared();
        fx.reset();
        BackupGroupRef g = GcFixture.vm(42);
        long day = 86_400L;
        long t0 = 1_700_000_000L;
        for (int i = 0; i < 5; i++) {
            fx.snapshot(g, t0 + i * day, fx.chunks(i, i + 2));
        }
        BackupSnapshotRef oldest = new BackupSnapshotRef(g, t0);
        fx.ds.setProtected(oldest, true);
        PruneOptions keep2 = new PruneOptions(2, null, null, null, null, null);

        Pruner.Result dry = Pruner.prune(fx.ds, g, keep2, true, ZoneOffset.UTC);
        assertEquals(List.of(PruneMark.PROTECTED, PruneMark.REMOVE, PruneMark.REMOVE, PruneMark.KEEP, PruneMark.KEEP),
                dry.decisions().stream().map(PruneDecision::mark).toList());
        assertTrue(dry.removed().isEmpty());
        assertEquals(5, fx.ds.listSnapshots(g).size());

        Pruner.Result r = Pruner.prune(fx.ds, g, keep2, false, ZoneOffset.UTC);
        assertEquals(List.of(new BackupSnapshotRef(g, t0 + day), new BackupSnapshotRef(g, t0 + 2 * day)), r.removed(),
                "removed oldest first");
        assertTrue(r.warnings().isEmpty(), r.warnings().toString());
        assertFalse(r.groupRemoved());
        assertEquals(List.of(t0, t0 + 3 * day, t0 + 4 * day),
                fx.ds.listSnapshots(g).stream().map(SnapshotInfo::ref).map(BackupSnapshotRef::time).toList());

        // removing the last snapshots of a group removes the group
        fx.ds.setProtected(oldest, false);
        for (SnapshotInfo s : fx.ds.listSnapshots(g)) {
            fx.ds.removeSnapshot(s.ref());
        }
        assertFalse(Files.exists(fx.ds.groupDir(g)));
        assertTrue(Pruner.prune(fx.ds, g, keep2, false, ZoneOffset.UTC).groupRemoved());
    }
}
