package org.jpbs.client.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.jpbs.core.pxar.IndexReadAt;
import org.jpbs.client.pxar.fs.PreviousCursor;
import org.jpbs.client.pxar.fs.TreeArchiver;
import org.jpbs.core.snapshot.SnapshotSource;

/**
 * A file archive written split ({@code docs/pxar.md#metadata-change-detection}): the metadata
 * stream {@code NAME.mpxar.didx} and the payload stream {@code NAME.ppxar.didx}, cut by the buzhash
 * chunker (4 MiB average), the payload stream with the boundaries suggested where new files'
 * payloads start. In {@link ChangeDetectionMode#METADATA} the previous
 * snapshot's split archive of the same name is opened (its metadata archive read through the
 * target's view of the previous snapshot, its payload chunks known to the target), so that
 * unchanged files are not read; without one, every file is read, as in
 * {@link ChangeDetectionMode#DATA}.
 */
final class SplitTreeBackup {
    private SplitTreeBackup() {}

    /** The server names of the split archive of {@code NAME.pxar.didx}: metadata, payload. */
    static String[] names(String serverName) {
        String suffix = ".pxar.didx";
        if (!serverName.endsWith(suffix)) {
            throw new IllegalArgumentException("a file archive must be named NAME.pxar.didx: " + serverName);
        }
        String base = serverName.substring(0, serverName.length() - suffix.length());
        return new String[] {base + ".mpxar.didx", base + ".ppxar.didx"};
    }

    /** Chunk cache of the previous metadata archive's reader (read sequentially: a few chunks suffice). */
    private static final long PREVIOUS_CACHE_BYTES = 32L << 20;

    static TreeResult archive(BackupEngine engine, String serverName, Path root, TreeArchiver.Options options,
            ChangeDetectionMode mode, Consumer<String> warnings) throws IOException {
        String[] names = names(serverName);
        DynamicArchiveStream meta = engine.openDynamicStream(names[0], DynamicArchiveStream.AVERAGE_CHUNK_SIZE);
        DynamicArchiveStream payload = null;
        SnapshotSource previousSource = null;
        IndexReadAt previousReader = null;
        try {
            payload = engine.openPayloadStream(names[1]);
            TreeArchiver a = new TreeArchiver(options, null, warnings).suggestingBoundaries(payload::suggestBoundary);
            PreviousSplitArchive previous = null;
            if (mode == ChangeDetectionMode.METADATA) {
                BackupEngine.PreviousIndex pm = engine.previousIndex(names[0]);
                BackupEngine.PreviousIndex pp = engine.previousIndex(names[1]);
                Optional<SnapshotSource> src = pm.index() != null && pp.index() != null
                        ? engine.target().openPreviousSource() : Optional.empty();
                if (src.isPresent()) {
                    previousSource = src.get();
                    // opened through the reader session: a server allows the chunks of indexes read there
                    // read once from front to back: the next chunks are fetched while one is decoded
                    previousReader = new IndexReadAt(previousSource.openIndex(names[0]), previousSource,
                            engine.crypt().chunkKey(), true, PREVIOUS_CACHE_BYTES, 2, "previous " + names[0]);
                    previous = new PreviousSplitArchive(new PreviousCursor(previousReader.streamFrom(0)), pp.index(),
                            payload);
                    a.reusing(previous);
                } else {
                    String why = pm.index() == null ? pm.why() : pp.index() == null ? pp.why()
                            : "the previous snapshot cannot be read";
                    warnings.accept("no previous metadata archive to compare with (" + why + "): reading every file");
                }
            }
            a.archive(root, meta, payload);
            // the manifest lists the payload archive first, as the PBS client adds them
            DynamicArchiveStream.Result rp = payload.finish();
            DynamicArchiveStream.Result rm = meta.finish();
            TreeArchiver.Counters c = a.counters();
            return new TreeResult(List.of(rp, rm), c.filesRead(), c.bytesRead(), c.filesReused(), c.bytesReused(),
                    previous == null ? 0 : previous.reusedChunks(), previous == null ? 0 : previous.padding());
        } finally {
            meta.close();
            if (payload != null) {
                payload.close();
            }
            if (previousReader != null) {
                previousReader.close();
            }
            if (previousSource != null) {
                previousSource.close();
            }
        }
    }
}
