package org.jpbs.vma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.vma.format.ExtentHeader;
import org.jpbs.vma.format.Vma;
import org.junit.jupiter.api.Test;

/** Damaged archives: each check of {@code docs/vma.md#format} reports what and where. */
class VmaBadInputTest {
    /** Archive: header (12800 bytes with the config), 2 extents of device "d" (100 clusters). */
    static byte[] good() throws IOException {
        byte[] img = TestArchives.image(5, 100 * Vma.CLUSTER_SIZE);
        return TestArchives.archive(List.<String[]>of(new String[] {"qemu-server.conf", "memory: 1\n"}),
                List.of(new TestArchives.Dev("d", img)), 1, 58);
    }

    static int headerSize(byte[] a) {
        return ByteBuffer.wrap(a).getInt(56);
    }

    /** Reads everything, with the restore's completeness check. */
    static CorruptDataException fail(byte[] archive) {
        return assertThrows(CorruptDataException.class, () -> {
            VmaReader r = new VmaReader(new ByteArrayInputStream(archive), "bad.vma");
            ByteBuffer buf = ByteBuffer.allocate(Vma.MAX_EXTENT_DATA);
            while (r.next(buf) != null) {
                // read on
            }
            r.checkComplete(r.header().devices());
        });
    }

    static void assertError(CorruptDataException e, String text, long offset) {
        assertTrue(e.getMessage().contains(text), e.getMessage());
        assertEquals(offset, e.offset(), e.getMessage());
        assertTrue(e.getMessage().startsWith("bad.vma: "), e.getMessage());
    }

    @Test
    void goodArchiveReads() throws IOException {
        VmaReader r = new VmaReader(new ByteArrayInputStream(good()), "good.vma");
        int n = 0;
        while (r.next(ByteBuffer.allocate(Vma.MAX_EXTENT_DATA)) != null) {
            n++;
        }
        r.checkComplete(r.header().devices());
        assertEquals(2, n);
    }

    @Test
    void truncatedAnywhere() throws IOException {
        byte[] a = good();
        int h = headerSize(a);
        assertError(fail(Arrays.copyOf(a, 0)), "empty archive", 0);
        assertError(fail(Arrays.copyOf(a, 5000)), "truncated archive: the header ends after 5000 bytes", 5000);
        assertError(fail(Arrays.copyOf(a, h - 1)), "truncated archive: the header ends after " + (h - 1), h - 1);
        assertError(fail(Arrays.copyOf(a, h + 100)), "ends inside its header (100 of 512 bytes)", h + 100);
        assertError(fail(Arrays.copyOf(a, h + 600)), "truncated archive: the extent at byte " + h, h + 600);
        assertError(fail(Arrays.copyOf(a, a.length - 1)), "truncated archive", a.length - 1);
    }

    @Test
    void badMagicVersionAndHeaderMd5() throws IOException {
        byte[] a = good();
        byte[] m = a.clone();
        m[0] = 'X';
        assertError(fail(m), "not a VMA archive", 0);
        byte[] v = a.clone();
        v[7] = 2;
        assertError(fail(v), "unsupported VMA version 2", 4);
        byte[] md = a.clone();
        md[100] ^= 1; // reserved byte, covered by the MD5
        assertError(fail(md), "wrong header MD5", 32);
        byte[] blob = a.clone();
        blob[12_288 + 3 + 5] ^= 1; // inside the config name: MD5 still catches it first
        assertError(fail(blob), "wrong header MD5", 32);
    }

    @Test
    void extentMagicMd5UuidAndReserved() throws IOException {
        byte[] a = good();
        int h = headerSize(a);
        byte[] m = a.clone();
        m[h + 3] = 'X';
        assertError(fail(m), "bad extent magic", h);
        byte[] md = a.clone();
        md[h + 40 + 8 * 3 + 7] ^= 1; // a block-info slot
        assertError(fail(md), "wrong extent MD5", h + 24);
        byte[] u = a.clone();
        u[h + 8] ^= 1;
        assertError(fail(u), "does not match the archive uuid", h + 8);
        byte[] r = a.clone();
        r[h + 5] = 1;
        assertError(fail(r), "reserved field is 1", h + 4);
    }

    @Test
    void uuidMismatchWithValidMd5() throws IOException {
        byte[] a = good();
        int h = headerSize(a);
        byte[] ext = Arrays.copyOfRange(a, h, h + 512);
        ExtentHeader parsed = ExtentHeader.parse(ext, h, TestArchives.UUID1, "x");
        byte[] other = ExtentHeader.encode(UUID.randomUUID(), parsed.entries());
        byte[] b = a.clone();
        System.arraycopy(other, 0, b, h, 512);
        assertError(fail(b), "does not match the archive uuid " + TestArchives.UUID1, h + 8);
    }

    @Test
    void blockCountTooHighOrTooLow() throws IOException {
        byte[] a = good();
        int h = headerSize(a);
        ExtentHeader parsed = ExtentHeader.parse(Arrays.copyOfRange(a, h, h + 512), h, TestArchives.UUID1, "x");
        for (int delta : new int[] {1, -1}) {
            byte[] ext = ExtentHeader.encode(TestArchives.UUID1, parsed.entries());
            ByteBuffer.wrap(ext).putShort(6, (short) (parsed.blockCount() + delta));
            rehash(ext);
            byte[] b = a.clone();
            System.arraycopy(ext, 0, b, h, 512);
            assertError(fail(b), delta > 0 ? "(too many blocks)" : "(missing blocks)", h + 6);
        }
    }

    @Test
    void duplicatedAndMissingClusters() throws IOException {
        byte[] img = TestArchives.image(6, 10 * Vma.CLUSTER_SIZE);
        ByteArrayOutputStream dup = new ByteArrayOutputStream();
        // extent A holds clusters 0..9, extent B (forged) holds cluster 3 again
        byte[] base = TestArchives.archive(List.of(), List.of(new TestArchives.Dev("d", img)), 1, 58);
        int h = headerSize(base);
        dup.write(base);
        byte[] forged = ExtentHeader.encode(TestArchives.UUID1, List.of(new ExtentHeader.Entry(0, 1, 3, 0)));
        dup.write(forged);
        assertError(fail(dup.toByteArray()), "found duplicated cluster 3 of device d", base.length + 40);

        // drop cluster 7 from the extent: entries 0..9 without 7, block count adjusted
        ExtentHeader parsed = ExtentHeader.parse(Arrays.copyOfRange(base, h, h + 512), h, TestArchives.UUID1, "x");
        List<ExtentHeader.Entry> kept = parsed.entries().stream().filter(e -> e.cluster() != 7).toList();
        int dropStart = 0;
        for (ExtentHeader.Entry e : parsed.entries()) {
            if (e.cluster() == 7) {
                break;
            }
            dropStart += e.blocks() * Vma.BLOCK_SIZE;
        }
        int dropLen = parsed.entries().get(7).blocks() * Vma.BLOCK_SIZE;
        ByteArrayOutputStream miss = new ByteArrayOutputStream();
        miss.write(base, 0, h);
        miss.write(ExtentHeader.encode(TestArchives.UUID1, kept));
        miss.write(base, h + 512, dropStart);
        miss.write(base, h + 512 + dropStart + dropLen, base.length - (h + 512 + dropStart + dropLen));
        byte[] m = miss.toByteArray();
        assertError(fail(m), "detected missing cluster 7 of device d", m.length);
    }

    @Test
    void clusterBeyondDeviceAndUnknownDevice() throws IOException {
        byte[] base = TestArchives.archive(List.of(), List.of(new TestArchives.Dev("d", new byte[70_000])), 1, 58);
        byte[] beyond = concat(base, ExtentHeader.encode(TestArchives.UUID1, List.of(new ExtentHeader.Entry(0, 1, 2, 0))));
        assertError(fail(beyond), "cluster 2 is beyond the end of device d", base.length + 40);
        byte[] unknown = concat(base, ExtentHeader.encode(TestArchives.UUID1, List.of(new ExtentHeader.Entry(5, 9, 0, 0))));
        assertError(fail(unknown), "unknown dev_id 9", base.length + 40 + 5 * 8);
    }

    @Test
    void deviceNameNotNulTerminated() throws IOException {
        byte[] a = TestArchives.archive(List.of(), List.of(new TestArchives.Dev("drive-scsi0", new byte[4096])), 1, 58);
        int h = headerSize(a);
        byte[] hdr = Arrays.copyOf(a, h);
        // the name blob "drive-scsi0\0" starts at blob offset 1: length 12 (LE), then the bytes
        assertEquals(12, hdr[12_288 + 1]);
        hdr[12_288 + 3 + 11] = 'X';
        rehashHeader(hdr);
        byte[] b = concat(hdr, Arrays.copyOfRange(a, h, a.length));
        assertError(fail(b), "device 1 name (blob at 1) is not NUL-terminated", 4096 + 32);
    }

    @Test
    void configPointerNotABlob() throws IOException {
        byte[] a = good();
        byte[] hdr = Arrays.copyOf(a, headerSize(a));
        ByteBuffer.wrap(hdr).putInt(3068, 5); // data pointer into the middle of a blob
        rehashHeader(hdr);
        byte[] b = concat(hdr, Arrays.copyOfRange(a, hdr.length, a.length));
        assertError(fail(b), "config 0 ('qemu-server.conf'): data pointer 5 is not the start of a blob", 3068);
    }

    @Test
    void writerRefusesOversizedConfigAndLateRegistration() throws IOException {
        VmaWriter w = new VmaWriter(new ByteArrayOutputStream(), TestArchives.UUID1, 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> w.addConfig("big.conf", new byte[65_536]));
        assertTrue(e.getMessage().contains("'big.conf' is 65536 bytes"), e.getMessage());
        w.addConfig("ok.conf", new byte[65_535]);
        int d = w.addDevice("d", 65_536);
        w.writeCluster(d, 0, new byte[Vma.CLUSTER_SIZE], 0);
        assertThrows(IllegalStateException.class, () -> w.addDevice("e", 1));
        assertThrows(IllegalStateException.class, () -> w.writeCluster(d, 0, new byte[Vma.CLUSTER_SIZE], 0));
        assertThrows(IllegalArgumentException.class, () -> w.writeCluster(d, 1, new byte[Vma.CLUSTER_SIZE], 0));
        w.finish();
    }

    @Test
    void writerRefusesIncompleteDevice() {
        VmaWriter w = new VmaWriter(new ByteArrayOutputStream(), TestArchives.UUID1, 1);
        int d = w.addDevice("disk", 3 * 65_536);
        IOException e = assertThrows(IOException.class, () -> {
            w.writeCluster(d, 0, new byte[Vma.CLUSTER_SIZE], 0);
            w.finish();
        });
        assertTrue(e.getMessage().contains("device 'disk': only 1 of 3 clusters written"), e.getMessage());
    }

    @Test
    void vmstateMustBeSequential() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        VmaWriter w = new VmaWriter(out, TestArchives.UUID1, 1);
        int d = w.addDevice("vmstate", 200_000);
        byte[] c = new byte[Vma.CLUSTER_SIZE];
        c[0] = 7;
        assertThrows(IllegalArgumentException.class, () -> w.writeCluster(d, 1, c, 0));
        w.writeCluster(d, 0, c, 0);
        w.writeCluster(d, 1, c, 0);
        w.finish();
        byte[] a = out.toByteArray();
        VmaReader ok = new VmaReader(new ByteArrayInputStream(a), "ok");
        while (ok.next(ByteBuffer.allocate(Vma.MAX_EXTENT_DATA)) != null) {
            // fine
        }
        // reversed order in a forged extent
        int h = headerSize(a);
        byte[] rev = concat(Arrays.copyOf(a, h), ExtentHeader.encode(TestArchives.UUID1,
                List.of(new ExtentHeader.Entry(0, 1, 1, 0), new ExtentHeader.Entry(1, 1, 0, 0))));
        assertError(fail(rev), "found out of order vmstate data: cluster 1, expected 0", h + 40);
    }

    static void rehash(byte[] ext) throws IOException {
        Arrays.fill(ext, 24, 40, (byte) 0);
        System.arraycopy(md5(ext), 0, ext, 24, 16);
    }

    static void rehashHeader(byte[] hdr) throws IOException {
        Arrays.fill(hdr, 32, 48, (byte) 0);
        System.arraycopy(md5(hdr), 0, hdr, 32, 16);
    }

    static byte[] md5(byte[] b) throws IOException {
        try {
            return MessageDigest.getInstance("MD5").digest(b);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IOException(e);
        }
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
