package org.jpbs.client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.UUID;
import org.jpbs.client.backup.ImageBackup;
import org.jpbs.core.index.FixedIndex;

/** Test helper: seeded images with random, zero and compressible text regions. */
public final class TestImages {
    public static final int MIB = 1024 * 1024;

    private TestImages() {}

    /**
     * {@code 10 MiB + 12345} bytes: [0,4M) random, [4M,8M) zero, [8M,9M) text, [9M,9.5M) zero,
     * the rest random.
     */
    public static byte[] mixed(long seed) {
        byte[] img = new byte[10 * MIB + 12345];
        Random r = new Random(seed);
        fillRandom(r, img, 0, 4 * MIB);
        fillText(r, img, 8 * MIB, MIB);
        fillRandom(r, img, 9 * MIB + MIB / 2, img.length - (9 * MIB + MIB / 2));
        return img;
    }

    public static void fillRandom(Random r, byte[] b, int off, int len) {
        byte[] tmp = new byte[len];
        r.nextBytes(tmp);
        System.arraycopy(tmp, 0, b, off, len);
    }

    public static void fillText(Random r, byte[] b, int off, int len) {
        String[] words = {"proxmox", "backup", "chunk", "index", "digest", "zstd", "java", "restore", "\n"};
        StringBuilder sb = new StringBuilder();
        while (sb.length() < len) {
            sb.append(words[r.nextInt(words.length)]).append(' ');
        }
        byte[] t = sb.toString().getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(t, 0, b, off, len);
    }

    public static Path write(Path dir, String name, byte[] data) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, data);
        return p;
    }

    /** An image backed up into a chunk store in memory. */
    public record BackedUp(byte[] data, MemoryChunkStore store, FixedIndex index) {}

    /** {@link #mixed}(11) written to {@code dir/src.img} and backed up in 1 MiB chunks on {@code workers} threads. */
    public static BackedUp backUp(Path dir, int workers) throws IOException {
        byte[] data = mixed(11);
        Path img = write(dir, "src.img", data);
        MemoryChunkStore store = new MemoryChunkStore();
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(img)) {
            FixedIndex index = new ImageBackup().chunkSize(MIB).workers(workers)
                    .run(ch, data.length, store, UUID.randomUUID(), 1, "src.img").index();
            return new BackedUp(data, store, index);
        }
    }
}
