package org.jpbs.vma;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.jpbs.vma.format.Vma;

/** Seeded test images and archives. */
public final class TestArchives {
    public static final UUID UUID1 = UUID.fromString("04fc12eb-0fed-4322-9aaa-f4e412f68096");
    public static final long CTIME = 1_700_000_000L;

    private TestArchives() {}

    /**
     * An image of {@code size} bytes: random data with whole zero clusters, zero 4 KiB blocks
     * inside data clusters, and a random tail.
     */
    public static byte[] image(long seed, int size) {
        Random r = new Random(seed);
        byte[] b = new byte[size];
        r.nextBytes(b);
        for (int c = 0; c * Vma.CLUSTER_SIZE < size; c++) {
            int kind = r.nextInt(4);
            int base = c * Vma.CLUSTER_SIZE;
            if (kind == 0) { // whole cluster zero
                java.util.Arrays.fill(b, base, Math.min(size, base + Vma.CLUSTER_SIZE), (byte) 0);
            } else if (kind == 1) { // some zero blocks
                for (int blk = 0; blk < 16; blk++) {
                    if (r.nextBoolean()) {
                        int s = base + blk * Vma.BLOCK_SIZE;
                        if (s < size) {
                            java.util.Arrays.fill(b, s, Math.min(size, s + Vma.BLOCK_SIZE), (byte) 0);
                        }
                    }
                }
            }
        }
        return b;
    }

    /** A device for {@link #archive}. */
    public record Dev(String name, byte[] data) {}

    /** An uncompressed archive with the given configs (name, text) and devices. */
    public static byte[] archive(List<String[]> configs, List<Dev> devices, int interleave, int perExtent)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        VmaWriter w = new VmaWriter(out, UUID1, CTIME).clustersPerExtent(perExtent);
        for (String[] c : configs) {
            w.addConfig(c[0], c[1].getBytes(StandardCharsets.UTF_8));
        }
        List<Integer> ids = new ArrayList<>();
        for (Dev d : devices) {
            ids.add(w.addDevice(d.name(), d.data().length));
        }
        VmaCreator creator = new VmaCreator().interleave(interleave);
        for (int i = 0; i < devices.size(); i++) {
            byte[] data = devices.get(i).data();
            java.nio.file.Path tmp = java.nio.file.Files.createTempFile("vma-src", ".img");
            try {
                java.nio.file.Files.write(tmp, data);
                try (var ch = java.nio.channels.FileChannel.open(tmp)) {
                    creator.writeDevice(w, ids.get(i), ch, data.length, tmp.toString(), n -> { });
                }
            } finally {
                java.nio.file.Files.deleteIfExists(tmp);
            }
        }
        w.finish();
        return out.toByteArray();
    }
}
