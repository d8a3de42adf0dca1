package org.jpbs.client.restore;

import static org.jpbs.client.TestImages.MIB;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jpbs.client.MemoryChunkStore;
import org.jpbs.client.TestImages;
import org.jpbs.client.backup.ImageBackup;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.errors.MissingChunkException;
import org.jpbs.core.index.FixedIndex;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PipelinedRestoreTest {
    @TempDir
    Path dir;

    private byte[] data;
    private MemoryChunkStore store;
    private FixedIndex index;
    private ExecutorService network;
    private int nonZeroChunks;

    @BeforeEach
    void backUp() throws IOException {
        data = TestImages.mixed(21);
        Path img = TestImages.write(dir, "src.img", data);
        store = new MemoryChunkStore();
        try (FileChannel ch = FileChannel.open(img)) {
            index = new ImageBackup().chunkSize(MIB).workers(3)
                    .run(ch, data.length, store, UUID.randomUUID(), 1, "src.img").index();
        }
        nonZeroChunks = index.chunkCount() - 4; // [4M,8M) is zeros
        network = Executors.newCachedThreadPool();
    }

    @AfterEach
    void stop() {
        network.shutdownNow();
    }

    /**
     * A fetcher that answers from another thread and holds every answer back until
     * {@code gate} requests are in flight (or every chunk was requested), so a restore that
     * does not keep that many fetches going would never finish.
     */
    private final class GatedFetcher implements ChunkFetcher {
        final int gate;
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger maxInFlight = new AtomicInteger();
        final AtomicInteger requested = new AtomicInteger();
        final Map<Digest, CompletableFuture<DataBlob>> pending = new ConcurrentHashMap<>();

        GatedFetcher(int gate) {
            this.gate = gate;
        }

        @Override
        public synchronized CompletableFuture<DataBlob> fetch(Digest digest) {
            int now = inFlight.incrementAndGet();
            maxInFlight.accumulateAndGet(now, Math::max);
            requested.incrementAndGet();
            CompletableFuture<DataBlob> f = new CompletableFuture<>();
            pending.put(digest, f);
            if (now >= gate || requested.get() >= nonZeroChunks) {
                releaseAll();
            }
            return f;
        }

        private void releaseAll() {
            for (Digest d : pending.keySet()) {
                CompletableFuture<DataBlob> f = pending.remove(d);
                network.execute(() -> {
                    inFlight.decrementAndGet();
                    DataBlob b = store.chunks.get(d);
                    if (b == null) {
                        f.completeExceptionally(new MissingChunkException(d, "test fetcher"));
                    } else {
                        f.complete(b);
                    }
                });
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 16})
    void fileTargetKeepsTheConfiguredFetchesInFlight(int fetches) throws IOException {
        GatedFetcher f = new GatedFetcher(Math.min(fetches, nonZeroChunks));
        Path out = dir.resolve("out-" + fetches + ".img");
        AtomicLong progress = new AtomicLong();
        RestoreStats s;
        try (RandomAccessFile raf = new RandomAccessFile(out.toFile(), "rw")) {
            raf.setLength(index.size());
            s = new PipelinedRestore().fetchConcurrency(fetches).workers(2).progress(progress::addAndGet)
                    .restore(index, f, raf.getChannel(), "src.img.fidx");
        }
        assertArrayEquals(data, Files.readAllBytes(out));
        assertEquals(Math.min(fetches, nonZeroChunks), f.maxInFlight.get(), "fetches in flight");
        assertEquals(nonZeroChunks, s.fetchedChunks());
        assertEquals(4, s.zeroChunks());
        assertEquals(data.length, progress.get());
    }

    @Test
    void sparseFileTargetSkipsZeroChunks() throws IOException {
        Path out = dir.resolve("sparse.img");
        RestoreStats s;
        try (RandomAccessFile raf = new RandomAccessFile(out.toFile(), "rw")) {
            raf.setLength(index.size());
            s = new PipelinedRestore().sparse(true).restore(index, new GatedFetcher(4), raf.getChannel(), "src.img.fidx");
        }
        assertArrayEquals(data, Files.readAllBytes(out));
        assertEquals(4L * MIB, s.skippedBytes());
    }

    @Test
    void streamTargetIsInOrder() throws IOException {
        for (int fetches : new int[] {1, 5}) {
            // no gate: in-order writing may legitimately wait for the oldest chunk with fewer fetches in flight
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            GatedFetcher f = new GatedFetcher(1);
            new PipelinedRestore().fetchConcurrency(fetches).workers(3).restore(index, f, out, "src.img.fidx");
            assertArrayEquals(data, out.toByteArray());
            assertTrue(f.maxInFlight.get() <= fetches, f.maxInFlight + " fetches in flight");
        }
    }

    @Test
    void consumerGetsEveryChunkOnceAndZerosAsNull() throws IOException {
        byte[] rebuilt = new byte[data.length];
        Map<Long, Integer> seen = new ConcurrentHashMap<>();
        AtomicInteger nulls = new AtomicInteger();
        new PipelinedRestore().fetchConcurrency(8).workers(4).restore(index, new GatedFetcher(7), (offset, bytes, len) -> {
            assertEquals(null, seen.put(offset, len), "chunk at " + offset + " handed over twice");
            if (bytes == null) {
                nulls.incrementAndGet();
            } else {
                System.arraycopy(bytes, 0, rebuilt, (int) offset, len);
            }
        }, "src.img.fidx");
        assertArrayEquals(data, rebuilt);
        assertEquals(index.chunkCount(), seen.size());
        assertEquals(4, nulls.get());
    }

    @Test
    void failuresArePropagated() throws IOException {
        Digest missing = index.digest(2);
        DataBlob original = store.chunks.remove(missing);
        // gate 1: every fetch completes; a higher gate can hold a fetch back for ever once the
        // restore stops issuing fetches after the failure (the restore then waits for it: a hang)
        MissingChunkException e = assertThrows(MissingChunkException.class, () -> new PipelinedRestore()
                .fetchConcurrency(4).restore(index, new GatedFetcher(1), (o, b, l) -> { }, "src.img.fidx"));
        assertEquals(missing, e.digest());
        assertThrows(MissingChunkException.class, () -> new PipelinedRestore().fetchConcurrency(2)
                .restore(index, new GatedFetcher(1), new ByteArrayOutputStream(), "src.img.fidx"));

        byte[] other = new byte[MIB];
        new Random(3).nextBytes(other);
        store.chunks.put(missing, DataBlob.encode(other, 0, other.length, true));
        CorruptDataException c = assertThrows(CorruptDataException.class, () -> new PipelinedRestore()
                .restore(index, new GatedFetcher(1), (o, b, l) -> { }, "src.img.fidx"));
        assertTrue(c.getMessage().contains(missing.hex()), c.getMessage());

        store.chunks.put(missing, original); // else the corrupt chunk may fail first
        IOException fromConsumer = assertThrows(IOException.class, () -> new PipelinedRestore()
                .restore(index, d -> CompletableFuture.completedFuture(store.chunks.get(d)), (o, b, l) -> {
                    if (o == 0) {
                        throw new IOException("disk full at 0");
                    }
                }, "src.img.fidx"));
        assertTrue(fromConsumer.getMessage().contains("disk full"), fromConsumer.getMessage());
    }
}
