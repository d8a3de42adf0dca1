package org.jpbs.testkit.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.core.snapshot.SnapshotSource;
import org.jpbs.core.snapshot.SnapshotTarget;
import org.junit.jupiter.api.Test;

/**
 * What every {@link SnapshotTarget} must do ({@code docs/design.md#snapshot-source-and-target}):
 * the snapshot becomes visible only at finish, complete and as written; an abort leaves nothing;
 * the next snapshot of the group sees the previous manifest and index and may reuse its chunks
 * without storing them again; a snapshot without files is refused. Extend it and say how to make a fresh
 * {@link SnapshotPlace} for each test.
 */
public abstract class SnapshotTargetContract extends PlaceHolder {
    /** The group the tests write (default {@code host/contract} in the root namespace). */
    protected BackupGroupRef group() {
        return new BackupGroupRef(BackupNamespace.ROOT, BackupType.HOST, "contract");
    }

    private BackupSnapshotRef at(long time) {
        return new BackupSnapshotRef(group(), time);
    }

    private static BackupManifest manifest(BackupSnapshotRef ref, List<FileEntry> files) {
        BackupManifest m = new BackupManifest(ref.group().type(), ref.group().id(), ref.time());
        files.forEach(m::addFile);
        return m;
    }

    /** Writes the whole fixture as {@code ref}; returns the manifest it finished with. */
    protected BackupManifest writeFixture(BackupSnapshotRef ref, SnapshotFixture f) throws IOException {
        try (SnapshotTarget t = begin(ref)) {
            assertEquals(ref, t.snapshot());
            BackupManifest m = manifest(ref, List.of(f.writeConfig(t), f.writeImage(t, Set.of()),
                    f.writeArchive(t, Set.of())));
            assertFalse(t.isFinished());
            t.finish(m);
            assertTrue(t.isFinished());
            return m;
        }
    }

    @Test
    void aFinishedSnapshotReadsBackAsWritten() throws IOException {
        SnapshotFixture f = new SnapshotFixture(1);
        BackupSnapshotRef ref = at(1_700_000_100L);
        BackupManifest written = writeFixture(ref, f);
        try (SnapshotSource s = open(ref)) {
            assertEquals(written.files(), s.manifest().files());
            assertArrayEquals(f.config, s.readBlob(SnapshotFixture.CONFIG, null));
            IndexFile image = s.openIndex(SnapshotFixture.IMAGE);
            assertEquals(f.imageSize(), image.size());
            for (int i = 0; i < f.imageChunks.size(); i++) {
                byte[] want = f.imageChunks.get(i);
                assertArrayEquals(want, s.readChunk(image.digest(i), want.length, null), "image chunk " + i);
            }
            IndexFile archive = s.openIndex(SnapshotFixture.ARCHIVE);
            assertEquals(f.archive().length, archive.size());
            for (int i = 0; i < f.archiveChunks.size(); i++) {
                byte[] want = f.archiveChunks.get(i);
                assertEquals(want.length, archive.chunkLength(i));
                assertArrayEquals(want, s.readChunk(archive.digest(i), want.length, null), "archive chunk " + i);
            }
        }
    }

    @Test
    void anAbortedSnapshotLeavesNothing() throws IOException {
        SnapshotFixture f = new SnapshotFixture(2);
        BackupSnapshotRef ref = at(1_700_000_200L);
        try (SnapshotTarget t = begin(ref)) {
            f.writeConfig(t);
            f.writeImage(t, Set.of());
            t.abort("contract test");
            assertFalse(t.isFinished());
        }
        assertThrows(Exception.class, () -> open(ref).close());
        // the group has no finished snapshot: the next one sees no previous manifest
        try (SnapshotTarget t = begin(at(1_700_000_201L))) {
            assertEquals(Optional.empty(), t.previousManifest());
        }
    }

    @Test
    void closingWithoutFinishIsAnAbort() throws IOException {
        BackupSnapshotRef ref = at(1_700_000_300L);
        try (SnapshotTarget t = begin(ref)) {
            new SnapshotFixture(3).writeConfig(t);
        }
        assertThrows(Exception.class, () -> open(ref).close());
    }

    @Test
    void theNextSnapshotSeesThePreviousAndReusesItsChunks() throws IOException {
        SnapshotFixture f = new SnapshotFixture(4);
        BackupManifest first = writeFixture(at(1_700_000_400L), f);
        BackupSnapshotRef second = at(1_700_000_500L);
        try (SnapshotTarget t = begin(second)) {
            BackupManifest prev = t.previousManifest().orElseThrow();
            assertEquals(first.files(), prev.files());
            FileEntry imageEntry = prev.file(SnapshotFixture.IMAGE).orElseThrow();
            IndexFile previous = t.previousIndex(imageEntry);
            assertTrue(previous instanceof FixedIndex);
            assertEquals(imageEntry.size(), previous.size());
            Set<Digest> known = new HashSet<>();
            for (int i = 0; i < previous.chunkCount(); i++) {
                known.add(previous.digest(i));
            }
            Set<Digest> archiveKnown = new HashSet<>();
            IndexFile prevArchive = t.previousIndex(prev.file(SnapshotFixture.ARCHIVE).orElseThrow());
            for (int i = 0; i < prevArchive.chunkCount(); i++) {
                archiveKnown.add(prevArchive.digest(i));
            }
            SnapshotTarget.IndexWriter w = t.openFixedIndex(SnapshotFixture.IMAGE, f.imageSize(), known);
            Digest d0 = previous.digest(0);
            assertTrue(w.isKnown(d0), "a chunk of the previous index is known");
            w.reuse(d0);
            byte[] fresh = new byte[1234];
            new java.util.Random(99).nextBytes(fresh);
            assertFalse(w.isKnown(EncodedChunk.digest(fresh, 0, fresh.length, null)));
            // the fixture through writers that know every chunk: nothing is inserted, all reused
            BackupManifest m = manifest(second, List.of(f.fillImage(w), f.writeArchive(t, archiveKnown)));
            t.finish(m);
        }
        try (SnapshotSource s = open(second)) {
            IndexFile image = s.openIndex(SnapshotFixture.IMAGE);
            byte[] want = f.imageChunks.get(0);
            assertArrayEquals(want, s.readChunk(image.digest(0), want.length, null));
        }
    }

    @Test
    void insertSaysWhetherTheChunkWasNew() throws IOException {
        try (SnapshotTarget t = begin(at(1_700_000_600L))) {
            SnapshotTarget.IndexWriter w = t.openDynamicIndex("x.pxar.didx", Set.of());
            byte[] c = new byte[5000];
            new java.util.Random(6).nextBytes(c);
            EncodedChunk chunk = EncodedChunk.encode(c, 0, c.length, true);
            assertTrue(w.insert(chunk), "first insert stores the chunk");
            assertFalse(w.insert(chunk), "second insert finds it stored");
            t.abort("contract test");
        }
    }

    @Test
    void aSnapshotWithoutFilesIsRefused() throws IOException {
        BackupSnapshotRef ref = at(1_700_000_700L);
        try (SnapshotTarget t = begin(ref)) {
            assertThrows(IOException.class, () -> t.finish(manifest(ref, List.of())));
            assertFalse(t.isFinished());
        }
        assertThrows(Exception.class, () -> open(ref).close());
    }
}
