package org.jpbs.testkit.snapshot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.index.DynamicIndex;
import org.jpbs.core.index.DynamicIndexBuilder;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.FixedIndexBuilder;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.core.snapshot.SnapshotTarget;

/**
 * Seeded archives for the contract suites: an image of three fixed chunks (one all-zero, the last
 * one shorter), a dynamic archive of chunks of varying length, and a config blob.
 * Written through a {@link SnapshotTarget} the way an engine would: chunks inserted (or reused
 * when the writer knows them), then the index handed over at close.
 */
public final class SnapshotFixture {
    /** Chunk size of the fixture's fixed index (the one a server accepts: 4 MiB). */
    public static final int CHUNK = org.jpbs.core.FileFormats.DEFAULT_FIXED_CHUNK_SIZE;
    /** Archive names. */
    public static final String IMAGE = "disk.img.fidx";
    public static final String ARCHIVE = "root.pxar.didx";
    public static final String CONFIG = "qemu-server.conf.blob";

    /** The plaintext chunks of the image, in order. */
    public final List<byte[]> imageChunks = new ArrayList<>();
    /** The plaintext chunks of the dynamic archive, in order. */
    public final List<byte[]> archiveChunks = new ArrayList<>();
    /** The config's content. */
    public final byte[] config;

    /** Seeded content; the same seed gives the same archives. */
    public SnapshotFixture(long seed) {
        Random r = new Random(seed);
        for (int i = 0; i < 3; i++) {
            byte[] c = new byte[i == 2 ? 70_017 : CHUNK];
            if (i != 1) {
                r.nextBytes(c); // chunk 1 stays all zeros
            }
            imageChunks.add(c);
        }
        for (int i = 0; i < 5; i++) {
            byte[] c = new byte[1000 + r.nextInt(30_000)];
            r.nextBytes(c);
            archiveChunks.add(c);
        }
        config = ("name: contract-" + seed + "\nmemory: 1024\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The image's size in bytes. */
    public long imageSize() {
        return imageChunks.stream().mapToLong(c -> c.length).sum();
    }

    /** The image's bytes, concatenated. */
    public byte[] image() {
        return concat(imageChunks);
    }

    /** The dynamic archive's bytes, concatenated. */
    public byte[] archive() {
        return concat(archiveChunks);
    }

    private static byte[] concat(List<byte[]> chunks) {
        byte[] out = new byte[chunks.stream().mapToInt(c -> c.length).sum()];
        int pos = 0;
        for (byte[] c : chunks) {
            System.arraycopy(c, 0, out, pos, c.length);
            pos += c.length;
        }
        return out;
    }

    /** Writes the image as a fixed index; returns its manifest entry. */
    public FileEntry writeImage(SnapshotTarget target, java.util.Set<org.jpbs.core.digest.Digest> known)
            throws IOException {
        return fillImage(target.openFixedIndex(IMAGE, imageSize(), known));
    }

    /** Writes the image's chunks through an open fixed index writer and closes it. */
    public FileEntry fillImage(SnapshotTarget.IndexWriter w) throws IOException {
        FixedIndexBuilder b = new FixedIndexBuilder(imageSize(), CHUNK);
        for (int i = 0; i < imageChunks.size(); i++) {
            b.set(i, store(w, imageChunks.get(i)));
        }
        FixedIndex idx = b.build(UUID.nameUUIDFromBytes(config), 1_700_000_000L);
        return w.close(idx, CryptMode.NONE);
    }

    /** Writes the dynamic archive; returns its manifest entry. */
    public FileEntry writeArchive(SnapshotTarget target, java.util.Set<org.jpbs.core.digest.Digest> known)
            throws IOException {
        SnapshotTarget.IndexWriter w = target.openDynamicIndex(ARCHIVE, known);
        DynamicIndexBuilder b = new DynamicIndexBuilder();
        long end = 0;
        for (byte[] c : archiveChunks) {
            end += c.length;
            b.append(end, store(w, c));
        }
        DynamicIndex idx = b.build(UUID.nameUUIDFromBytes(config), 1_700_000_000L);
        return w.close(idx, CryptMode.NONE);
    }

    /** Writes the config blob; returns its manifest entry. */
    public FileEntry writeConfig(SnapshotTarget target) throws IOException {
        return target.addBlob(CONFIG, DataBlob.encode(config, 0, config.length, true), CryptMode.NONE);
    }

    private static org.jpbs.core.digest.Digest store(SnapshotTarget.IndexWriter w, byte[] c) throws IOException {
        org.jpbs.core.digest.Digest d = EncodedChunk.digest(c, 0, c.length, null);
        if (w.isKnown(d)) {
            w.reuse(d);
        } else {
            w.insert(EncodedChunk.encode(c, 0, c.length, true));
        }
        return d;
    }

    @Override
    public String toString() {
        return "SnapshotFixture[" + imageChunks.size() + " image chunks, " + archiveChunks.size() + " archive chunks, "
                + Arrays.hashCode(config) + "]";
    }
}
