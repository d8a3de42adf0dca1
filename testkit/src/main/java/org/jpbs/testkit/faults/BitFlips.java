package org.jpbs.testkit.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/** Seeded bit flips: in a buffer (what a flaky read returns) or in a file on disk (bit rot). */
public final class BitFlips {
    private BitFlips() {}

    /**
     * Flips one bit of {@code data} at or after byte {@code from}, chosen by {@code random}.
     *
     * @return the index of the flipped bit
     */
    public static int flip(byte[] data, SplittableRandom random, int from) {
        int start = Math.min(from, data.length - 1);
        int bit = start * 8 + random.nextInt((data.length - start) * 8);
        data[bit >>> 3] ^= (byte) (1 << (bit & 7));
        return bit;
    }

    /**
     * Flips one seeded bit of the file at or after byte {@code from} (e.g. past a blob header, so
     * the damage is in the payload and only the CRC or the digest can tell). The file's
     * timestamps change as with any write.
     *
     * @return the index of the flipped bit
     */
    public static int flipOnDisk(Path file, long seed, int from) throws IOException {
        byte[] data = Files.readAllBytes(file);
        int bit = flip(data, new SplittableRandom(seed), from);
        Files.write(file, data);
        return bit;
    }
}
