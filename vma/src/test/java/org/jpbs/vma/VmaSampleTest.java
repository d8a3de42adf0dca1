package org.jpbs.vma;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.vma.format.ExtentHeader;
import org.jpbs.vma.format.Vma;
import org.jpbs.vma.format.VmaDevice;
import org.jpbs.vma.format.VmaHeader;
import org.jpbs.vma.stream.Compression;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real Proxmox VE sample in {@code ../shared/vectors/pve-sample-truncated.vma.gz} ({@code docs/vma.md#test-sample}): header fields, the header re-encoded byte for byte,
 * extent layout, decoded cluster hashes, and that a restore finds it incomplete.
 */
class VmaSampleTest {
    static byte[] sample;

    @BeforeAll
    static void load() throws IOException {
        Path file = SharedVectors.require("vectors/pve-sample-truncated.vma.gz");
        try (InputStream in = Compression.openDecoding(Files.newInputStream(file), "sample")) {
            sample = in.readAllBytes();
        }
    }

    @Test
    void headerFields() throws IOException {
        assertEquals(538_112, sample.length);
        VmaReader r = new VmaReader(new ByteArrayInputStream(sample), "sample");
        VmaHeader h = r.header();
        assertEquals(UUID.fromString("04fc12eb-0fed-4322-9aaa-f4e412f68096"), h.uuid());
        assertEquals(1_635_680_622L, h.ctime());
        assertEquals(12_800, r.position());
        assertEquals(1, h.configs().size());
        assertEquals("qemu-server.conf", h.configs().get(0).name());
        assertEquals(417, h.configs().get(0).data().length);
        assertTrue(new String(h.configs().get(0).data(), StandardCharsets.UTF_8).contains("#qmdump#map:scsi0:drive-scsi0:"));
        assertEquals(List.of(new VmaDevice(1, "drive-scsi0", 10_737_418_240L)), h.devices());
        assertEquals(453, ByteBuffer.wrap(sample).getInt(52));
    }

    @Test
    void headerReEncodesByteForByte() throws IOException {
        VmaHeader h = new VmaReader(new ByteArrayInputStream(sample), "sample").header();
        assertArrayEquals(Arrays.copyOf(sample, 12_800), h.encode());
    }

    @Test
    void extentsAndInterleavedOrder() throws IOException {
        VmaReader r = new VmaReader(new ByteArrayInputStream(sample), "sample");
        ByteBuffer buf = ByteBuffer.allocate(Vma.MAX_EXTENT_DATA);
        VmaExtent e0 = r.next(buf);
        assertEquals(12_800, e0.offset());
        assertEquals(16, e0.header().blockCount());
        assertEquals(58, e0.entries().size());
        VmaExtent e1 = r.next(buf);
        assertEquals(78_848, e1.offset());
        assertEquals(112, e1.header().blockCount());
        assertEquals(58, e1.entries().size());
        List<Long> first = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            first.add(e1.entries().get(i).cluster());
        }
        assertEquals(List.of(90L, 96L, 112L, 128L, 144L, 48L, 160L, 16L, 91L, 97L), first);
        assertNull(r.next(buf));
        assertEquals(sample.length, r.position());
    }

    @Test
    void decodedClustersMatchPublishedHashes() throws Exception {
        byte[][] clusters = new byte[23][];
        VmaReader r = new VmaReader(new ByteArrayInputStream(sample), "sample");
        ByteBuffer buf = ByteBuffer.allocate(Vma.MAX_EXTENT_DATA);
        VmaExtent e;
        while ((e = r.next(buf)) != null) {
            for (int i = 0; i < e.entries().size(); i++) {
                ExtentHeader.Entry en = e.entries().get(i);
                if (en.cluster() < 23) {
                    byte[] c = new byte[Vma.CLUSTER_SIZE];
                    int off = e.dataOffset(i);
                    for (int b = 0; b < 16; b++) {
                        if ((en.mask() & 1 << b) != 0) {
                            buf.get(off, c, b * Vma.BLOCK_SIZE, Vma.BLOCK_SIZE);
                            off += Vma.BLOCK_SIZE;
                        }
                    }
                    clusters[(int) en.cluster()] = c;
                }
            }
        }
        assertEquals("cf4adcf1933a8c9a0a3ff5588e1400e6beea8a32212b3a35ba08c7b08e4e6b1f", sha256(clusters[0]));
        for (int i = 1; i <= 15; i++) {
            assertArrayEquals(new byte[Vma.CLUSTER_SIZE], clusters[i], "cluster " + i);
        }
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        for (int i = 16; i <= 22; i++) {
            md.update(clusters[i]);
        }
        assertEquals("8c989a3aa590795fa919ccb7d1f28651c85f8a0d9ba00ab22cdd9fb760fa7955", HexFormat.of().formatHex(md.digest()));
    }

    @Test
    void restoreCheckFindsMissingCluster() throws IOException {
        VmaReader r = new VmaReader(new ByteArrayInputStream(sample), "sample");
        ByteBuffer buf = ByteBuffer.allocate(Vma.MAX_EXTENT_DATA);
        while (r.next(buf) != null) {
            // verify-style read: no error
        }
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> r.checkComplete(r.header().devices()));
        assertTrue(e.getMessage().contains("missing cluster 23 of device drive-scsi0"), e.getMessage());
        assertTrue(e.getMessage().contains("163724 of 163840 clusters missing"), e.getMessage());
        assertEquals(538_112, e.offset());
    }

    private static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }
}
