package org.jpbs.testkit.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;
import java.util.UUID;
import org.jpbs.core.FileFormats;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.FixedIndexBuilder;
import org.junit.jupiter.api.Test;

/** The index contract for {@code .fidx}, plus its own header fields (size at 64, chunk size at 72). */
class FixedIndexContractTest extends IndexFormatContract<FixedIndex> {
    private static final int SIZE_OFFSET = 64;
    private static final int CHUNK_SIZE_OFFSET = 72;
    private static final int CHUNK = 4096;

    @Override
    protected long magic() {
        return FileFormats.FIXED_INDEX_MAGIC;
    }

    @Override
    protected int entrySize() {
        return Digest.LENGTH;
    }

    @Override
    protected int reservedFrom() {
        return 80;
    }

    @Override
    protected FixedIndex build(long seed, int chunks) {
        long size = chunks == 0 ? 0 : (long) chunks * CHUNK - (seed % 1000); // the last chunk is shorter
        FixedIndexBuilder b = new FixedIndexBuilder(size, CHUNK);
        for (int i = 0; i < b.chunkCount(); i++) {
            b.set(i, digest(seed * 100_000 + i));
        }
        return b.build(uuid(seed), 1_700_000_000L + seed);
    }

    @Override
    protected UUID uuidOf(FixedIndex index) {
        return index.uuid();
    }

    @Override
    protected long ctimeOf(FixedIndex index) {
        return index.ctime();
    }

    @Override
    protected byte[] encode(FixedIndex index) {
        return index.encode();
    }

    @Override
    protected FixedIndex read(byte[] file) throws CorruptDataException {
        return FixedIndex.read(ByteBuffer.wrap(file), "test.fidx");
    }

    @Override
    protected String goldenName() {
        return "small.fidx";
    }

    @Override
    protected Optional<byte[]> realPbsFile() throws IOException {
        return Optional.of(RealPbsIndexes.file("golden-ds/vm/100/2023-11-14T22:13:20Z/drive-scsi0.img.fidx"));
    }

    @Test
    void sizeAndChunkSizeAreLittleEndianAt64And72() {
        FixedIndex index = build(3, 9);
        ByteBuffer b = ByteBuffer.wrap(index.encode()).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(index.size(), b.getLong(SIZE_OFFSET));
        assertEquals(CHUNK, b.getLong(CHUNK_SIZE_OFFSET));
        assertEquals(FixedIndex.chunkCount(index.size(), CHUNK), index.chunkCount());
    }
}
