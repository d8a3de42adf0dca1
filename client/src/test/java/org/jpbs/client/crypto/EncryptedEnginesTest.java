package org.jpbs.client.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.jpbs.client.MemoryChunkStore;
import org.jpbs.client.TestImages;
import org.jpbs.client.backup.ImageBackup;
import org.jpbs.client.restore.ImageRestore;
import org.jpbs.client.restore.PipelinedRestore;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CryptoException;
import org.jpbs.core.errors.EncryptedDataException;
import org.jpbs.core.index.FixedIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The backup and restore engines with a key: keyed digests, encrypted blobs, zero chunks, wrong keys. */
class EncryptedEnginesTest {
    private static final CryptConfig KEY = CryptConfig.of(seeded(1));
    private static final CryptConfig OTHER = CryptConfig.of(new byte[32]);

    @TempDir
    Path dir;

    private static byte[] seeded(long seed) {
        byte[] k = new byte[32];
        new java.util.Random(seed).nextBytes(k);
        return k;
    }

    @Test
    void encryptedBackupRestoresOnlyWithItsKey() throws Exception {
        byte[] data = TestImages.mixed(3);
        Path img = TestImages.write(dir, "a.img", data);
        MemoryChunkStore store = new MemoryChunkStore();
        ImageBackup.Result res;
        try (FileChannel ch = FileChannel.open(img)) {
            res = new ImageBackup().workers(2).crypt(KEY).run(ch, data.length, store, UUID.randomUUID(), 1, "a.img");
        }
        FixedIndex idx = res.index();
        for (int i = 0; i < idx.chunkCount(); i++) {
            int off = (int) idx.chunkStart(i);
            int len = idx.chunkLength(i);
            assertEquals(KEY.computeDigest(data, off, len), idx.digest(i), "chunk " + i);
        }
        for (DataBlob b : store.chunks.values()) {
            assertTrue(b.isEncrypted(), "every stored chunk is encrypted, the zero chunk too");
        }
        assertEquals(1, res.stats().zeroChunks(), "one full zero chunk");
        assertTrue(store.chunks.containsKey(KEY.computeDigest(new byte[4 << 20], 0, 4 << 20)));

        Path out = dir.resolve("out.img");
        try (FileChannel ch = FileChannel.open(out, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            new ImageRestore().workers(2).crypt(KEY).restore(idx, store, ch, "a.img.fidx");
        }
        assertArrayEquals(data, Files.readAllBytes(out));

        ByteArrayOutputStream piped = new ByteArrayOutputStream();
        new PipelinedRestore().workers(2).crypt(KEY).restore(idx,
                d -> CompletableFuture.completedFuture(store.chunks.get(d)), piped, "a.img.fidx");
        assertArrayEquals(data, piped.toByteArray());

        assertThrows(EncryptedDataException.class,
                () -> new ImageRestore().workers(1).restore(idx, store, new ByteArrayOutputStream(), "a.img.fidx"));
        assertThrows(CryptoException.class,
                () -> new ImageRestore().workers(1).crypt(OTHER).restore(idx, store, new ByteArrayOutputStream(), "a.img.fidx"));
    }

    @Test
    void secondBackupWithTheSameKeyReusesEverything() throws Exception {
        byte[] data = TestImages.mixed(4);
        Path img = TestImages.write(dir, "b.img", data);
        MemoryChunkStore store = new MemoryChunkStore();
        ImageBackup.Result first;
        try (FileChannel ch = FileChannel.open(img)) {
            first = new ImageBackup().crypt(KEY).run(ch, data.length, store, UUID.randomUUID(), 1, "b.img");
            store.knowAll(first.index());
            ImageBackup.Result second = new ImageBackup().crypt(KEY).run(ch, data.length, store, UUID.randomUUID(), 2, "b.img");
            assertEquals(0, second.stats().newChunks());
            for (int i = 0; i < first.index().chunkCount(); i++) {
                assertEquals(first.index().digest(i), second.index().digest(i));
            }
            ImageBackup.Result plain = new ImageBackup().run(ch, data.length, store, UUID.randomUUID(), 3, "b.img");
            assertEquals(Digest.sha256(data, 0, 4 << 20), plain.index().digest(0));
            assertTrue(plain.stats().newChunks() > 0, "plain digests differ from keyed ones");
        }
    }
}
