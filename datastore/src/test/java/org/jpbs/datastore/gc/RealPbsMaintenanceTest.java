package org.jpbs.datastore.gc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupType;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.prune.PruneMark;
import org.jpbs.datastore.prune.PruneOptions;
import org.jpbs.datastore.prune.Pruner;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.verify.SnapshotVerifyResult;
import org.jpbs.datastore.verify.Verifier;
import org.jpbs.datastore.verify.VerifyOptions;
import org.jpbs.datastore.verify.VerifyReport;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * GC, verify and prune on a copy of the datastore written by a real PBS 3.1.2
 * ({@code vectors/real-pbs/datastore.tar.gz}, which also holds the {@code .gc-status} PBS wrote).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RealPbsMaintenanceTest {
    @TempDir
    static Path tmp;
    static Datastore ds;
    static JsonNode pbsStatus;

    @BeforeAll
    static void untar() throws Exception {
        Path tar = SharedVectors.require("vectors/real-pbs/datastore.tar.gz");
        Process p = new ProcessBuilder("tar", "-xzf", tar.toString(), "-C", tmp.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "tar failed: " + out);
        ds = Datastore.open(tmp.resolve("golden-ds"), SyncLevel.NONE);
        pbsStatus = new ObjectMapper().readTree(Files.readAllBytes(ds.root().resolve(GcStatus.FILE)));
    }

    @Test
    @Order(1)
    void gcKeepsEveryChunkAndWritesTheSameStatusFieldsAsPbs() throws Exception {
        GcResult r = new GarbageCollector(ds, GcFixture.TUNING.withGcChunkMetadataPrefetch(true), GcFs.local(),
                new GcListener() {}, false, "root@pam").run();
        GcStatus s = r.status();
        assertEquals(0, s.removedChunks());
        assertEquals(0, s.pendingChunks());
        assertEquals(pbsStatus.get("disk-chunks").asLong(), s.diskChunks(), "all 9 chunks kept and referenced");
        assertEquals(pbsStatus.get("disk-bytes").asLong(), s.diskBytes());
        assertEquals(pbsStatus.get("index-file-count").asLong(), s.indexFileCount());
        assertEquals(pbsStatus.get("index-data-bytes").asLong(), s.indexDataBytes());
        JsonNode ours = new ObjectMapper().readTree(Files.readAllBytes(ds.root().resolve(GcStatus.FILE)));
        assertEquals(fieldNames(pbsStatus), fieldNames(ours), "same fields, same order");
        for (String f : fieldNames(pbsStatus)) {
            if (!f.equals("upid")) {
                assertEquals(pbsStatus.get(f), ours.get(f), f);
            }
        }
    }

    private static List<String> fieldNames(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }

    @Test
    @Order(2)
    void verifyReportsEverySnapshotOk() throws Exception {
        VerifyReport report;
        try (Verifier v = new Verifier(ds, VerifyOptions.defaults(), "root@pam", new Verifier.Listener() {})) {
            report = v.verifyAll();
        }
        assertEquals(4, report.results().size());
        for (SnapshotVerifyResult r : report.results()) {
            assertEquals(SnapshotVerifyResult.State.OK, r.state(), r.toString());
        }
        assertTrue(report.ok());
        // the encrypted snapshot's chunks are checked by CRC only, the others decoded and hashed
        var enc = report.results().stream().filter(r -> r.snapshot().group().id().equals("200")).findFirst().orElseThrow();
        assertEquals(0, enc.bytesDecoded());
        assertTrue(enc.bytesRead() > 0);
    }

    @Test
    @Order(3)
    void pruneKeepLastOneKeepsTheProtectedSnapshotAndTheNewest() throws Exception {
        BackupGroupRef vm100 = new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "100");
        Pruner.Result r = Pruner.prune(ds, vm100, new PruneOptions(1, null, null, null, null, null), false,
                ZoneId.systemDefault());
        assertEquals(List.of(PruneMark.PROTECTED, PruneMark.KEEP), r.decisions().stream().map(d -> d.mark()).toList());
        assertEquals("keep-last 1/1", r.decisions().get(1).reason());
        assertTrue(r.removed().isEmpty());
        assertEquals(2, ds.listSnapshots(vm100).size());
    }
}
