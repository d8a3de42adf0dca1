package org.jpbs.testkit.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.UUID;
import org.jpbs.core.FileFormats;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.index.IndexFile;
import org.junit.jupiter.api.Test;

/**
 * The behaviour of an index format ({@code .fidx}, {@code .didx}; {@code docs/formats.md}): round
 * trip, the header layout checked against the documented offsets, lookups, refusal of damaged
 * files, a golden fixture and, where the shared vectors hold one, a file PBS itself wrote.
 *
 * <p>Golden fixtures live in the test module's {@code src/test/resources/golden/}; the test
 * regenerates the fixture from its seed and compares byte for byte. Run with
 * {@code -Djpbs.golden.update=true} to rewrite them after a deliberate format change.
 *
 * @param <I> the index type
 */
public abstract class IndexFormatContract<I extends IndexFile> {
    /** Offsets of the common 4096-byte header ({@code docs/formats.md#fixed-index-fidx}). */
    protected static final int MAGIC_OFFSET = 0;
    protected static final int UUID_OFFSET = 8;
    protected static final int CTIME_OFFSET = 24;
    protected static final int CSUM_OFFSET = 32;
    /** System property: rewrite the golden fixtures instead of checking them. */
    public static final String UPDATE_PROPERTY = "jpbs.golden.update";

    /** The format's magic. */
    protected abstract long magic();

    /** Bytes per body entry (32 for a digest, 40 for end offset + digest). */
    protected abstract int entrySize();

    /** First header byte after the format's own fields: the rest up to 4096 must be zero. */
    protected abstract int reservedFrom();

    /** A seeded index with about {@code chunks} chunks. */
    protected abstract I build(long seed, int chunks);

    /** The index's UUID. */
    protected abstract UUID uuidOf(I index);

    /** The index's creation time (epoch seconds). */
    protected abstract long ctimeOf(I index);

    /** The file bytes. */
    protected abstract byte[] encode(I index);

    /** Parses file bytes. */
    protected abstract I read(byte[] file) throws CorruptDataException;

    /** The golden fixture's file name under {@code golden/} (e.g. {@code small.fidx}). */
    protected abstract String goldenName();

    /** A file of this format written by PBS itself, if the shared vectors are present (else the test is skipped). */
    protected abstract Optional<byte[]> realPbsFile() throws IOException;

    /** A seeded UUID. */
    protected static UUID uuid(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        return new UUID(r.nextLong(), r.nextLong());
    }

    /** A seeded digest. */
    protected static Digest digest(long seed) {
        byte[] b = new byte[Digest.LENGTH];
        new SplittableRandom(seed).nextBytes(b);
        return Digest.of(b);
    }

    private static ByteBuffer le(byte[] file) {
        return ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Checks the documented layout: magic, header fields, zero reserved bytes, checksum over the body, length. */
    protected void assertLayout(byte[] file, IndexFile index) {
        assertEquals(magic(), FileFormats.magicAt(file, MAGIC_OFFSET), "magic");
        assertEquals(FileFormats.INDEX_HEADER_SIZE + (long) entrySize() * index.chunkCount(), file.length, "length");
        byte[] body = Arrays.copyOfRange(file, FileFormats.INDEX_HEADER_SIZE, file.length);
        assertEquals(Digest.sha256(body), Digest.of(Arrays.copyOfRange(file, CSUM_OFFSET, CSUM_OFFSET + 32)),
                "checksum at offset 32 is the SHA-256 of the body");
        assertEquals(index.computeCsum(), Digest.sha256(body));
        for (int i = reservedFrom(); i < FileFormats.INDEX_HEADER_SIZE; i++) {
            assertEquals(0, file[i], "reserved header byte " + i);
        }
        for (int i = 0; i < index.chunkCount(); i++) {
            int at = FileFormats.INDEX_HEADER_SIZE + i * entrySize() + entrySize() - Digest.LENGTH;
            assertEquals(index.digest(i), Digest.of(Arrays.copyOfRange(file, at, at + Digest.LENGTH)), "digest " + i);
        }
    }

    @Test
    void roundTripKeepsEveryFieldAndEveryByte() throws CorruptDataException {
        for (int chunks : new int[] {0, 1, 7, 300}) {
            I index = build(41 + chunks, chunks);
            byte[] file = encode(index);
            I back = read(file);
            assertEquals(index.size(), back.size());
            assertEquals(index.chunkCount(), back.chunkCount());
            for (int i = 0; i < index.chunkCount(); i++) {
                assertEquals(index.digest(i), back.digest(i));
                assertEquals(index.chunkStart(i), back.chunkStart(i));
                assertEquals(index.chunkEnd(i), back.chunkEnd(i));
            }
            assertEquals(index.computeCsum(), back.computeCsum());
            assertArrayEquals(file, encode(back), "re-encoding a parsed index gives the same bytes");
            assertLayout(file, index);
            ByteBuffer header = le(file);
            assertEquals(ctimeOf(index), header.getLong(CTIME_OFFSET), "ctime, i64 little-endian at 24");
            assertEquals(uuidOf(index), new UUID(header.order(ByteOrder.BIG_ENDIAN).getLong(UUID_OFFSET),
                    header.getLong(UUID_OFFSET + 8)), "uuid bytes at 8");
            assertEquals(uuidOf(index), uuidOf(back));
        }
    }

    @Test
    void everyOffsetFindsTheChunkHoldingIt() {
        I index = build(7, 50);
        for (int i = 0; i < index.chunkCount(); i++) {
            assertEquals(i, index.findChunk(index.chunkStart(i)));
            assertEquals(i, index.findChunk(index.chunkEnd(i) - 1));
            assertTrue(index.chunkLength(i) > 0);
            if (i > 0) {
                assertEquals(index.chunkEnd(i - 1), index.chunkStart(i), "chunks are contiguous");
            }
        }
        assertEquals(index.size(), index.chunkEnd(index.chunkCount() - 1));
    }

    @Test
    void damagedFilesAreRefused() {
        byte[] file = encode(build(9, 10));
        byte[] badMagic = file.clone();
        badMagic[MAGIC_OFFSET] ^= 1;
        assertThrows(CorruptDataException.class, () -> read(badMagic));
        assertThrows(CorruptDataException.class, () -> read(Arrays.copyOf(file, file.length - 1)), "truncated body");
        assertThrows(CorruptDataException.class, () -> read(Arrays.copyOf(file, 100)), "truncated header");
    }

    @Test
    void theGoldenFixtureIsReproducedByteForByte() throws IOException {
        byte[] made = encode(build(20_240_601L, 5));
        if (Boolean.getBoolean(UPDATE_PROPERTY)) {
            Path out = Path.of("src/test/resources/golden", goldenName());
            Files.createDirectories(out.getParent());
            Files.write(out, made);
        }
        byte[] golden;
        try (InputStream in = getClass().getResourceAsStream("/golden/" + goldenName())) {
            assertNotNull(in, "golden fixture golden/" + goldenName() + " missing (make it with -D" + UPDATE_PROPERTY + "=true)");
            golden = in.readAllBytes();
        }
        assertArrayEquals(golden, made, "golden/" + goldenName() + " differs from what the writer makes now");
        I parsed = read(golden);
        assertLayout(golden, parsed);
    }

    @Test
    void aFileWrittenByPbsHasTheSameLayoutAndRoundTrips() throws IOException {
        Optional<byte[]> real = realPbsFile();
        org.junit.jupiter.api.Assumptions.assumeTrue(real.isPresent(), "no PBS-written file of this format");
        byte[] file = real.get();
        I index = read(file);
        assertTrue(index.chunkCount() > 0);
        assertLayout(file, index);
        assertArrayEquals(file, encode(index), "jpbs writes exactly what PBS wrote");
    }
}
