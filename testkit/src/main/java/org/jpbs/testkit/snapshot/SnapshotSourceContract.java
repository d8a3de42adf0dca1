package org.jpbs.testkit.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.DynamicIndex;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.snapshot.SnapshotSource;
import org.jpbs.core.snapshot.SnapshotTarget;
import org.junit.jupiter.api.Test;

/**
 * What every {@link SnapshotSource} must do ({@code docs/design.md#snapshot-source-and-target}):
 * hand out the manifest (parsed and as JSON), indexes of both kinds and blobs as written, and
 * chunks both blocking and asynchronously; refuse an archive the manifest does not list, naming
 * it and the files there are; fail a chunk it cannot hand out with an {@link IOException}.
 * Extend it and say how to make a fresh {@link SnapshotPlace} for each test.
 */
public abstract class SnapshotSourceContract extends PlaceHolder {
    private final SnapshotFixture fixture = new SnapshotFixture(11);
    private BackupSnapshotRef ref;
    private BackupManifest written;

    /** Writes the fixture snapshot (once per test; called first by each test, after the subclass's setup). */
    private void writeFixture() throws IOException {
        if (ref != null) {
            return;
        }
        ref = new BackupSnapshotRef(new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "4242"), 1_700_001_000L);
        try (SnapshotTarget t = begin(ref)) {
            BackupManifest m = new BackupManifest(ref.group().type(), ref.group().id(), ref.time());
            List.of(fixture.writeConfig(t), fixture.writeImage(t, Set.of()), fixture.writeArchive(t, Set.of()))
                    .forEach(m::addFile);
            t.finish(m);
            written = m;
        }
    }

    @Test
    void manifestAsWrittenParsedAndAsJson() throws IOException {
        writeFixture();
        try (SnapshotSource s = open(ref)) {
            assertEquals(ref, s.snapshot());
            assertEquals(written.files(), s.manifest().files());
            BackupManifest fromJson = BackupManifest.parse(s.manifestJson(), "index.json");
            assertEquals(written.files(), fromJson.files());
            assertEquals(written.files().get(1), s.entry(SnapshotFixture.IMAGE));
        }
    }

    @Test
    void anArchiveNotListedIsRefusedByName() throws IOException {
        writeFixture();
        try (SnapshotSource s = open(ref)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.entry("nope.img.fidx"));
            assertTrue(e.getMessage().contains("'nope.img.fidx'"), e.getMessage());
            assertTrue(e.getMessage().contains(SnapshotFixture.IMAGE), e.getMessage());
            assertThrows(Exception.class, () -> s.openIndex("nope.img.fidx"));
        }
    }

    @Test
    void indexesOfBothKindsAndTheirChunks() throws Exception {
        writeFixture();
        try (SnapshotSource s = open(ref)) {
            IndexFile image = s.openIndex(SnapshotFixture.IMAGE);
            assertTrue(image instanceof FixedIndex);
            assertEquals(fixture.imageSize(), image.size());
            IndexFile archive = s.openIndex(SnapshotFixture.ARCHIVE);
            assertTrue(archive instanceof DynamicIndex);
            assertEquals(fixture.archiveChunks.size(), archive.chunkCount());
            for (int i = 0; i < archive.chunkCount(); i++) {
                byte[] want = fixture.archiveChunks.get(i);
                assertArrayEquals(want, s.readChunk(archive.digest(i), want.length, null), "blocking read " + i);
                DataBlob blob = s.fetchChunk(archive.digest(i)).get();
                assertArrayEquals(want, blob.decode("chunk", want.length), "asynchronous read " + i);
            }
            assertTrue(s.chunkAccess() != null);
        }
    }

    @Test
    void blobsRawAndDecoded() throws IOException {
        writeFixture();
        try (SnapshotSource s = open(ref)) {
            DataBlob raw = s.openBlob(SnapshotFixture.CONFIG);
            assertEquals(s.entry(SnapshotFixture.CONFIG).size(), raw.rawLength());
            assertEquals(s.entry(SnapshotFixture.CONFIG).csum(), Digest.sha256(raw.raw()));
            assertArrayEquals(fixture.config, s.readBlob(SnapshotFixture.CONFIG, null));
        }
    }

    @Test
    void aChunkItCannotHandOutFails() throws Exception {
        byte[] absent = new byte[32];
        new java.util.Random(5).nextBytes(absent);
        Digest d = Digest.of(absent);
        writeFixture();
        try (SnapshotSource s = open(ref)) {
            s.openIndex(SnapshotFixture.IMAGE);
            // a local store lacks it (MissingChunkException); a server refuses a digest that no
            // index of the session lists before it looks (as PBS): either way an IOException
            assertThrows(IOException.class, () -> s.readChunk(d, -1, null));
            ExecutionException e = assertThrows(ExecutionException.class, () -> s.fetchChunk(d).get());
            assertTrue(e.getCause() instanceof IOException, String.valueOf(e.getCause()));
        }
    }
}
