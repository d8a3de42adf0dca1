package org.jpbs.datastore.chunks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.datastore.SharedTestDatastore;
import org.jpbs.datastore.TestData;
import org.junit.jupiter.api.Test;

/** Verify of single chunks: plain ones re-hashed, encrypted ones CRC and size only, kinds matched to the index. */
@org.junit.jupiter.api.extension.ExtendWith(SharedTestDatastore.class)
class ChunkVerifierTest {
    @Test
    void plainAndEncryptedChunks() throws Exception {
        DirectoryChunkStore store = ChunkStores.open(SharedTestDatastore.root(), SyncLevel.NONE);
        byte[] data = TestData.bytes(801, 50_000);
        EncodedChunk plain = EncodedChunk.encode(data, 0, data.length, true);
        store.insert(plain.digest(), plain.blob());
        CryptConfig key = CryptConfig.of(TestData.bytes(802, 32));
        EncodedChunk enc = EncodedChunk.encode(data, 0, data.length, true, key);
        store.insert(enc.digest(), enc.blob());

        assertEquals(ChunkVerifier.Result.VERIFIED, ChunkVerifier.verify(store, plain.digest(), data.length, CryptMode.NONE));
        assertEquals(ChunkVerifier.Result.VERIFIED, ChunkVerifier.verify(store, plain.digest(), data.length, CryptMode.SIGN_ONLY));
        assertEquals(ChunkVerifier.Result.ENCRYPTED_CRC_ONLY, ChunkVerifier.verify(store, enc.digest(), data.length, CryptMode.ENCRYPT));

        var kind = assertThrows(CorruptDataException.class, () -> ChunkVerifier.verify(store, enc.digest(), data.length, CryptMode.NONE));
        assertTrue(kind.getMessage().contains("chunk crypt mode encrypt does not match index crypt mode none"), kind.getMessage());
        assertThrows(CorruptDataException.class, () -> ChunkVerifier.verify(store, plain.digest(), data.length, CryptMode.ENCRYPT));
        var size = assertThrows(CorruptDataException.class, () -> ChunkVerifier.verify(store, enc.digest(), 10, CryptMode.ENCRYPT));
        assertTrue(size.getMessage().contains("does not fit its size 10"), size.getMessage());

        // a flipped ciphertext byte: the CRC catches it
        Path p = store.chunkPath(enc.digest());
        byte[] raw = Files.readAllBytes(p);
        raw[raw.length - 1] ^= 1;
        Files.write(p, raw);
        var crc = assertThrows(CorruptDataException.class, () -> ChunkVerifier.verify(store, enc.digest(), data.length, CryptMode.ENCRYPT));
        assertTrue(crc.getMessage().contains("CRC mismatch"), crc.getMessage());
    }
}
