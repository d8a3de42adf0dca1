package org.jpbs.vma;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jpbs.vma.format.ExtentHeader;
import org.jpbs.vma.format.Vma;
import org.jpbs.vma.format.VmaDevice;
import org.jpbs.vma.format.VmaHeader;
import org.junit.jupiter.api.Test;

/** Writer → reader round trips, decoded in memory. */
class VmaRoundTripTest {
    static final List<String[]> CONFIGS = List.of(new String[] {"qemu-server.conf", "memory: 512\ncores: 2\n"},
            new String[] {"qemu-server.fw", "[OPTIONS]\nenable: 1\n"});

    @Test
    void severalOddSizedDevicesRoundTrip() throws IOException {
        byte[] a = TestArchives.image(1, 3 * Vma.CLUSTER_SIZE + 12345);      // odd size, data
        byte[] b = new byte[5 * Vma.CLUSTER_SIZE + 512];                       // all zero (sparse)
        byte[] c = TestArchives.image(3, 40 * Vma.CLUSTER_SIZE + 4096 + 7);  // several extents
        for (int interleave : new int[] {1, 4}) {
            byte[] archive = TestArchives.archive(CONFIGS, List.of(new TestArchives.Dev("drive-scsi0", a),
                    new TestArchives.Dev("drive-virtio1", b), new TestArchives.Dev("drive-sata2", c)), interleave, 58);
            Map<Integer, byte[]> decoded = decode(archive);
            assertArrayEquals(a, decoded.get(1));
            assertArrayEquals(b, decoded.get(2));
            assertArrayEquals(c, decoded.get(3));
        }
    }

    @Test
    void headerCarriesConfigsAndDevices() throws IOException {
        byte[] archive = TestArchives.archive(CONFIGS, List.of(new TestArchives.Dev("drive-scsi0", new byte[100_000])), 1, 58);
        VmaReader r = new VmaReader(new ByteArrayInputStream(archive), "t.vma");
        VmaHeader h = r.header();
        assertEquals(TestArchives.UUID1, h.uuid());
        assertEquals(TestArchives.CTIME, h.ctime());
        assertEquals(2, h.configs().size());
        assertEquals("qemu-server.fw", h.configs().get(1).name());
        assertEquals("[OPTIONS]\nenable: 1\n", new String(h.configs().get(1).data(), StandardCharsets.UTF_8));
        assertEquals(List.of(new VmaDevice(1, "drive-scsi0", 100_000)), h.devices());
        assertEquals(0, (r.position() - Vma.HEADER_FIXED_SIZE) % 512);
    }

    @Test
    void extentsHoldAtMost58ClustersAndZeroClustersAsEmptyEntries() throws IOException {
        byte[] img = new byte[100 * Vma.CLUSTER_SIZE];
        img[0] = 1; // cluster 0 has one non-zero block
        byte[] archive = TestArchives.archive(List.of(), List.of(new TestArchives.Dev("d", img)), 1, 58);
        VmaReader r = new VmaReader(new ByteArrayInputStream(archive), "t.vma");
        ByteBuffer buf = ByteBuffer.allocate(Vma.MAX_EXTENT_DATA);
        VmaExtent e1 = r.next(buf);
        assertEquals(58, e1.entries().size());
        assertEquals(1, e1.header().blockCount());
        assertEquals(1, e1.entries().get(0).mask());
        assertEquals(0, e1.entries().get(1).mask());
        VmaExtent e2 = r.next(buf);
        assertEquals(42, e2.entries().size());
        assertEquals(0, e2.header().blockCount());
        assertNull(r.next(buf));
        r.checkComplete(r.header().devices());
        assertEquals(archive.length, r.position());
    }

    @Test
    void fiftyNineClustersPerExtentAreAccepted() throws IOException {
        byte[] img = TestArchives.image(9, 59 * Vma.CLUSTER_SIZE);
        byte[] archive = TestArchives.archive(List.of(), List.of(new TestArchives.Dev("d", img)), 1, 59);
        VmaReader r = new VmaReader(new ByteArrayInputStream(archive), "t.vma");
        assertEquals(59, r.next(ByteBuffer.allocateDirect(Vma.MAX_EXTENT_DATA)).entries().size());
        assertArrayEquals(img, decode(archive).get(1));
    }

    @Test
    void noDevicesGiveHeaderAndOneEmptyExtent() throws IOException {
        byte[] archive = TestArchives.archive(CONFIGS, List.of(), 1, 58);
        VmaReader r = new VmaReader(new ByteArrayInputStream(archive), "t.vma");
        VmaExtent e = r.next(ByteBuffer.allocate(Vma.MAX_EXTENT_DATA));
        assertTrue(e.entries().isEmpty());
        assertNull(r.next(ByteBuffer.allocate(Vma.MAX_EXTENT_DATA)));
    }

    /** Decodes all devices of an archive into byte arrays (absent blocks are zeros). */
    static Map<Integer, byte[]> decode(byte[] archive) throws IOException {
        VmaReader r = new VmaReader(new ByteArrayInputStream(archive), "t.vma");
        Map<Integer, byte[]> out = new HashMap<>();
        for (VmaDevice d : r.header().devices()) {
            out.put(d.id(), new byte[(int) d.size()]);
        }
        ByteBuffer buf = ByteBuffer.allocate(Vma.MAX_EXTENT_DATA);
        VmaExtent e;
        while ((e = r.next(buf)) != null) {
            for (int i = 0; i < e.entries().size(); i++) {
                ExtentHeader.Entry en = e.entries().get(i);
                byte[] dst = out.get(en.devId());
                int off = e.dataOffset(i);
                for (int blk = 0; blk < 16; blk++) {
                    if ((en.mask() & 1 << blk) != 0) {
                        long pos = en.cluster() * Vma.CLUSTER_SIZE + (long) blk * Vma.BLOCK_SIZE;
                        int n = (int) Math.min(Vma.BLOCK_SIZE, dst.length - pos);
                        buf.get(off, dst, (int) pos, n);
                        off += Vma.BLOCK_SIZE;
                    }
                }
            }
        }
        r.checkComplete(r.header().devices());
        return out;
    }
}
