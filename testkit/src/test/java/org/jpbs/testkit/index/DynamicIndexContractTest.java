package org.jpbs.testkit.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.UUID;
import org.jpbs.core.FileFormats;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.index.DynamicIndex;
import org.jpbs.core.index.DynamicIndexBuilder;
import org.junit.jupiter.api.Test;

/** The index contract for {@code .didx}, plus its entries (end offset u64 LE, then the digest). */
class DynamicIndexContractTest extends IndexFormatContract<DynamicIndex> {
    @Override
    protected long magic() {
        return FileFormats.DYNAMIC_INDEX_MAGIC;
    }

    @Override
    protected int entrySize() {
        return DynamicIndex.ENTRY_SIZE;
    }

    @Override
    protected int reservedFrom() {
        return 64;
    }

    @Override
    protected DynamicIndex build(long seed, int chunks) {
        SplittableRandom r = new SplittableRandom(seed);
        DynamicIndexBuilder b = new DynamicIndexBuilder();
        long end = 0;
        for (int i = 0; i < chunks; i++) {
            end += 1 + r.nextInt(1 << 20);
            b.append(end, digest(seed * 100_000 + i));
        }
        return b.build(uuid(seed), 1_700_000_000L + seed);
    }

    @Override
    protected UUID uuidOf(DynamicIndex index) {
        return index.uuid();
    }

    @Override
    protected long ctimeOf(DynamicIndex index) {
        return index.ctime();
    }

    @Override
    protected byte[] encode(DynamicIndex index) {
        return index.encode();
    }

    @Override
    protected DynamicIndex read(byte[] file) throws CorruptDataException {
        return DynamicIndex.read(ByteBuffer.wrap(file), "test.didx");
    }

    @Override
    protected String goldenName() {
        return "small.didx";
    }

    @Override
    protected Optional<byte[]> realPbsFile() throws IOException {
        return Optional.of(RealPbsIndexes.file("golden-ds/ns/prod/host/web/2023-11-14T22:13:20Z/root.pxar.didx"));
    }

    @Test
    void entriesAreEndOffsetThenDigest() {
        DynamicIndex index = build(5, 12);
        ByteBuffer b = ByteBuffer.wrap(index.encode()).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < index.chunkCount(); i++) {
            assertEquals(index.chunkEnd(i), b.getLong(FileFormats.INDEX_HEADER_SIZE + i * DynamicIndex.ENTRY_SIZE));
        }
    }

    @Test
    void endOffsetsThatDoNotIncreaseAreRefused() {
        byte[] file = build(6, 4).encode();
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(FileFormats.INDEX_HEADER_SIZE + 2 * DynamicIndex.ENTRY_SIZE, b.getLong(FileFormats.INDEX_HEADER_SIZE));
        assertThrows(CorruptDataException.class, () -> read(file));
    }
}
