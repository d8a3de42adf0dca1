package org.jpbs.vma.restore;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.vma.TestArchives;
import org.jpbs.vma.VmaReader;
import org.jpbs.vma.format.Vma;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Restores to files in every write mode, with and without zero writes and O_DIRECT. */
class VmaRestoreTest {
    @TempDir
    Path tmp;

    static final byte[] A = TestArchives.image(11, 7 * Vma.CLUSTER_SIZE + 5000);  // odd size
    static final byte[] B = TestArchives.image(12, 75 * Vma.CLUSTER_SIZE + 512);  // spans 2 extents

    @Test
    void everyModeGivesTheSameBytes() throws IOException {
        byte[] archive = TestArchives.archive(List.of(), List.of(new TestArchives.Dev("a", A),
                new TestArchives.Dev("b", B)), 4, 58);
        for (WriteMode mode : WriteMode.values()) {
            for (boolean zeroes : new boolean[] {false, true}) {
                Path pa = target("a-" + mode + zeroes, A.length, zeroes);
                Path pb = target("b-" + mode + zeroes, B.length, zeroes);
                VmaRestore.Result r = restore(archive, mode, Map.of(1, pa, 2, pb), zeroes, false);
                assertArrayEquals(A, Files.readAllBytes(pa), mode + " zeroes=" + zeroes);
                assertArrayEquals(B, Files.readAllBytes(pb), mode + " zeroes=" + zeroes);
                assertEquals(A.length + B.length, r.dataBytes() + r.zeroBytes());
                assertEquals(7 + 1 + 75 + 1, r.clusters());
                if (zeroes) {
                    assertEquals(A.length + B.length, r.writtenBytes(), mode.toString());
                } else {
                    assertEquals(r.dataBytes(), r.writtenBytes(), mode.toString());
                }
            }
        }
    }

    @Test
    void sortingMergesInterleavedClustersIntoOneRequest() throws IOException {
        byte[] img = new byte[58 * Vma.CLUSTER_SIZE];
        new java.util.Random(3).nextBytes(img);
        byte[] archive = TestArchives.archive(List.of(), List.of(new TestArchives.Dev("d", img)), 4, 58);
        Map<WriteMode, Long> requests = new HashMap<>();
        for (WriteMode mode : WriteMode.values()) {
            Path p = target("d-" + mode, img.length, false);
            VmaRestore.Result r = restore(archive, mode, Map.of(1, p), false, false);
            assertArrayEquals(img, Files.readAllBytes(p));
            requests.put(mode, r.writeRequests());
        }
        assertEquals(58L, requests.get(WriteMode.CLUSTER));
        assertEquals(58L, requests.get(WriteMode.MERGED)); // 0, 16, 32, 48, 1, 17, ...: nothing adjacent
        assertEquals(1L, requests.get(WriteMode.SORTED));
    }

    @Test
    void partialClustersSplitAtGapsOrFillZeros() throws IOException {
        byte[] img = new byte[2 * Vma.CLUSTER_SIZE];
        Arrays.fill(img, 0, 4 * Vma.BLOCK_SIZE, (byte) 1);                                   // blocks 0-3
        Arrays.fill(img, 8 * Vma.BLOCK_SIZE, 16 * Vma.BLOCK_SIZE, (byte) 2);                 // blocks 8-15
        byte[] archive = TestArchives.archive(List.of(), List.of(new TestArchives.Dev("d", img)), 1, 58);
        long[][] expected = {{12, 32}, {2, 1}, {2, 1}}; // CLUSTER, MERGED, SORTED x {sparse, zeroes}
        for (WriteMode mode : WriteMode.values()) {
            for (int z = 0; z < 2; z++) {
                Path p = target("p-" + mode + z, img.length, z == 1);
                VmaRestore.Result r = restore(archive, mode, Map.of(1, p), z == 1, false);
                assertArrayEquals(img, Files.readAllBytes(p));
                assertEquals(expected[mode.ordinal()][z], r.writeRequests(), mode + " zeroes=" + (z == 1));
            }
        }
    }

    @Test
    void incompleteArchiveFailsWithMissingCluster() throws IOException {
        byte[] archive = TestArchives.archive(List.of(), List.of(new TestArchives.Dev("b", B)), 1, 58);
        byte[] cut = Arrays.copyOf(archive, (int) firstExtentEnd(archive));
        Path p = target("cut", B.length, false);
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> restore(cut, WriteMode.SORTED, Map.of(1, p), false, true));
        assertTrue(e.getMessage().contains("detected missing cluster 58 of device b"), e.getMessage());
        // verify-style: no targets, no completeness check
        restore(cut, WriteMode.SORTED, Map.of(), false, false);
    }

    @Test
    void directWritesWithUnalignedDeviceEnd() throws IOException {
        Path dir = Files.createTempDirectory(Path.of("/var/tmp"), "jpbs-vma-direct-");
        try {
            Path probe = dir.resolve("probe");
            Files.write(probe, new byte[4096]);
            try {
                DeviceTarget.open("probe", probe, 4096, true, false).close();
            } catch (IOException e) {
                Assumptions.abort("O_DIRECT not supported in /var/tmp: " + e.getMessage());
            }
            byte[] archive = TestArchives.archive(List.of(), List.of(new TestArchives.Dev("a", A)), 4, 58);
            for (WriteMode mode : WriteMode.values()) {
                Path p = dir.resolve("a-" + mode);
                try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
                    f.setLength(A.length);
                }
                DeviceTarget t = DeviceTarget.open("a", p, A.length, true, true);
                VmaRestore.Result r;
                try (t) {
                    r = new VmaRestore().mode(mode).run(new VmaReader(new ByteArrayInputStream(archive), "a.vma"),
                            Map.of(1, t), true);
                }
                assertTrue(t.direct());
                assertArrayEquals(A, Files.readAllBytes(p), mode.toString());
                assertEquals(A.length, r.writtenBytes());
            }
        } finally {
            try (var s = Files.list(dir)) {
                for (Path p : s.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(dir);
        }
    }

    private static long firstExtentEnd(byte[] archive) {
        int h = java.nio.ByteBuffer.wrap(archive).getInt(56);
        int blocks = java.nio.ByteBuffer.wrap(archive).getShort(h + 6) & 0xffff;
        return h + 512L + blocks * 4096L;
    }

    /** A target file of {@code size} bytes: zeros (sparse) or, when zeroes are written, garbage. */
    private Path target(String name, int size, boolean garbage) throws IOException {
        Path p = tmp.resolve(name);
        if (garbage) {
            byte[] g = new byte[size];
            Arrays.fill(g, (byte) 0xAA);
            Files.write(p, g);
        } else {
            try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
                f.setLength(size);
            }
        }
        return p;
    }

    private static VmaRestore.Result restore(byte[] archive, WriteMode mode, Map<Integer, Path> paths, boolean zeroes,
            boolean complete) throws IOException {
        VmaReader reader = new VmaReader(new ByteArrayInputStream(archive), "t.vma");
        Map<Integer, DeviceTarget> targets = new HashMap<>();
        try {
            for (Map.Entry<Integer, Path> e : paths.entrySet()) {
                long size = reader.header().device(e.getKey()).size();
                targets.put(e.getKey(), DeviceTarget.open("dev" + e.getKey(), e.getValue(), size, false, zeroes));
            }
            return new VmaRestore().mode(mode).run(reader, targets, complete);
        } finally {
            for (DeviceTarget t : targets.values()) {
                t.close();
            }
        }
    }
}
