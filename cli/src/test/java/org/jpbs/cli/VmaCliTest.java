package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Stream;
import org.jpbs.vma.VmaWriter;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jpbs vma ...} end to end: round trips through every compression and write mode, the
 * real sample, import into and export from a datastore, device maps, and bad input (exit code,
 * one error line, nothing left behind).
 */
class VmaCliTest {
    static final int CLUSTER = 65536;

    @TempDir(factory = FastTempDirs.class)
    static Path shared;

    static Path repo;
    static Path disk0;   // odd size, data with zero blocks and zero clusters
    static Path disk1;   // odd size, all zero (sparse)
    static Path disk2;   // odd size, several extents, a whole zero 4 MiB chunk inside
    static Path conf;
    static Path fw;

    @TempDir(factory = FastTempDirs.class)
    Path tmp;

    @BeforeAll
    static void images() throws IOException {
        repo = shared.resolve("ds");
        disk0 = shared.resolve("disk0.raw");
        Files.write(disk0, image(1, 3 * CLUSTER + 12_345));
        disk1 = shared.resolve("disk1.raw");
        Files.write(disk1, new byte[5 * CLUSTER + 4096 + 512]);
        disk2 = shared.resolve("disk2.raw");
        byte[] d2 = image(2, 11 * 1024 * 1024 + 777);
        Arrays.fill(d2, 4 * 1024 * 1024, 8 * 1024 * 1024, (byte) 0);
        Files.write(disk2, d2);
        conf = shared.resolve("qemu-server.conf");
        Files.writeString(conf, "memory: 512\n#qmdump#map:scsi0:drive-scsi0:local:raw:\n");
        fw = shared.resolve("qemu-server.fw");
        Files.writeString(fw, "[OPTIONS]\nenable: 1\n");
    }

    @AfterAll
    static void deleteDatastore() throws IOException {
        FastTempDirs.deleteTree(repo);
    }

    /** Random data with whole zero clusters and zero 4 KiB blocks. */
    static byte[] image(long seed, int size) {
        Random r = new Random(seed);
        byte[] b = new byte[size];
        r.nextBytes(b);
        for (int c = 0; c * CLUSTER < size; c++) {
            int kind = r.nextInt(3);
            for (int blk = 0; blk < 16; blk++) {
                int s = c * CLUSTER + blk * 4096;
                if (s < size && (kind == 0 || (kind == 1 && r.nextBoolean()))) {
                    Arrays.fill(b, s, Math.min(size, s + 4096), (byte) 0);
                }
            }
        }
        return b;
    }

    CliRunner cli() {
        return new CliRunner(tmp.resolve("home"), Map.of());
    }

    CliRunner.Result ok(String... args) {
        CliRunner.Result r = cli().run(args);
        assertEquals(0, r.exit(), r.all());
        return r;
    }

    /** A failing run: the exit code, one line "jpbs: error: ..." containing the text. */
    CliRunner.Result fails(int exit, String text, String... args) {
        CliRunner.Result r = cli().run(args);
        assertEquals(exit, r.exit(), r.all());
        String[] lines = r.err().strip().split("\n");
        assertEquals(1, lines.length, r.all());
        assertTrue(lines[0].startsWith("jpbs: error: ") && lines[0].contains(text), "'" + text + "' in " + r.all());
        return r;
    }

    Path create(String name, String... extra) {
        Path out = tmp.resolve(name);
        String[] base = {"vma", "create", out.toString(), "-c", conf.toString(), "-c", fw.toString(),
            "-d", "drive-scsi0=" + disk0, "-d", "format=raw:drive-virtio1=" + disk1, "-d", "drive-sata2=" + disk2};
        String[] all = Arrays.copyOf(base, base.length + extra.length);
        System.arraycopy(extra, 0, all, base.length, extra.length);
        ok(all);
        return out;
    }

    void assertExtracted(Path dir) throws IOException {
        assertArrayEquals(Files.readAllBytes(disk0), Files.readAllBytes(dir.resolve("disk-drive-scsi0.raw")));
        assertArrayEquals(Files.readAllBytes(disk1), Files.readAllBytes(dir.resolve("disk-drive-virtio1.raw")));
        assertArrayEquals(Files.readAllBytes(disk2), Files.readAllBytes(dir.resolve("disk-drive-sata2.raw")));
        assertEquals(Files.readString(conf), Files.readString(dir.resolve("qemu-server.conf")));
        assertEquals(Files.readString(fw), Files.readString(dir.resolve("qemu-server.fw")));
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(5, s.count(), "no temporary files left");
        }
    }

    @Test
    void createListVerifyExtractInEveryCompressionAndWriteMode() throws IOException {
        String[][] variants = {{"a.vma"}, {"a.vma.zst", "--writes", "cluster"}, {"a.vma.gz", "--writes", "merged",
            "--write-zeroes"}, {"a.vma.lzo", "--write-zeroes"}};
        for (String[] v : variants) {
            Path archive = create(v[0], "--interleave", "4", "--ctime", "1700000000");
            CliRunner.Result list = ok("vma", "list", archive.toString());
            List<String> lines = list.out().lines().toList();
            assertEquals("CFG: size: " + Files.size(conf) + " name: qemu-server.conf", lines.get(0));
            assertEquals("CFG: size: " + Files.size(fw) + " name: qemu-server.fw", lines.get(1));
            assertEquals("DEV: dev_id=1 size: " + Files.size(disk0) + " devname: drive-scsi0", lines.get(2));
            assertEquals("DEV: dev_id=2 size: " + Files.size(disk1) + " devname: drive-virtio1", lines.get(3));
            assertEquals("DEV: dev_id=3 size: " + Files.size(disk2) + " devname: drive-sata2", lines.get(4));
            assertTrue(lines.get(5).startsWith("CTIME: ") && lines.get(5).contains("2023"), lines.get(5));
            assertEquals(6, lines.size());
            ok("vma", "verify", archive.toString());
            Path dir = tmp.resolve("x-" + v[0]);
            String[] extract = {"vma", "extract", archive.toString(), dir.toString()};
            String[] all = Arrays.copyOf(extract, extract.length + v.length - 1);
            System.arraycopy(v, 1, all, extract.length, v.length - 1);
            CliRunner.Result r = ok(all);
            assertTrue(r.out().contains("DEVINFO " + dir.resolve("disk-drive-scsi0.raw") + " " + Files.size(disk0)), r.out());
            assertExtracted(dir);
            CliRunner.Result cfg = ok("vma", "config", archive.toString(), "-c", "qemu-server.fw");
            assertEquals(Files.readString(fw), cfg.out());
        }
    }

    @Test
    void selectedDevicesAndDeviceMap() throws IOException {
        Path archive = create("m.vma.zst");
        Path only = tmp.resolve("only");
        ok("vma", "extract", "-d", "drive-sata2", archive.toString(), only.toString());
        assertTrue(Files.exists(only.resolve("disk-drive-sata2.raw")));
        assertFalse(Files.exists(only.resolve("disk-drive-scsi0.raw")));

        Path target0 = tmp.resolve("vm-100-disk-0.raw");
        Path target2 = tmp.resolve("vm-100-disk-2.raw");
        Files.write(target2, new byte[(int) Files.size(disk2) + 4096]); // an existing volume, a little larger
        Path map = tmp.resolve("map");
        Files.writeString(map, "format=raw:0:drive-scsi0=" + target0 + "\nskip=drive-virtio1\n"
                + "throttling.bps=1000000:1:drive-sata2=" + target2 + "\ndone\n");
        Path dir = tmp.resolve("mapped");
        CliRunner.Result r = ok("vma", "extract", "-r", map.toString(), archive.toString(), dir.toString());
        assertTrue(r.out().startsWith("CFG: size: "), r.out());
        assertTrue(r.err().contains("throttling.bps=1000000 for drive-sata2 is accepted but not applied"), r.err());
        assertArrayEquals(Files.readAllBytes(disk0), Files.readAllBytes(target0));
        byte[] t2 = Files.readAllBytes(target2);
        assertArrayEquals(Files.readAllBytes(disk2), Arrays.copyOf(t2, (int) Files.size(disk2)));
        assertEquals(Files.readString(conf), Files.readString(dir.resolve("qemu-server.conf")));

        Files.writeString(map, "0:drive-scsi0=" + tmp.resolve("t0") + "\ndone\n");
        fails(1, "no device name mapping for drive-virtio1", "vma", "extract", "-r", map.toString(),
                archive.toString(), tmp.resolve("m2").toString());
        assertFalse(Files.exists(tmp.resolve("m2")));
        Files.writeString(map, "0:drive-nope=" + tmp.resolve("t0") + "\n");
        fails(1, "the archive has no device drive-nope", "vma", "extract", "-r", map.toString(),
                archive.toString(), tmp.resolve("m3").toString());
        Files.write(target2, new byte[4096]);
        Files.writeString(map, "0:drive-scsi0=" + target0 + "\nskip=drive-virtio1\n0:drive-sata2=" + target2 + "\n");
        fails(1, "target " + target2 + " for device drive-sata2 has 4096 bytes", "vma", "extract", "-r",
                map.toString(), archive.toString(), tmp.resolve("m4").toString());
        assertFalse(Files.exists(tmp.resolve("m4")));
    }

    @Test
    void realSampleListsPrintsVerifiesAndIsIncomplete() throws IOException {
        Path sample = SharedVectors.require("vectors/pve-sample-truncated.vma.gz");
        List<String> lines = ok("vma", "list", sample.toString()).out().lines().toList();
        assertEquals("CFG: size: 417 name: qemu-server.conf", lines.get(0));
        assertEquals("DEV: dev_id=1 size: 10737418240 devname: drive-scsi0", lines.get(1));
        assertTrue(lines.get(2).matches("CTIME: \\w{3} \\w{3} [ 0-9]\\d \\d\\d:\\d\\d:\\d\\d 2021"), lines.get(2));
        String config = ok("vma", "config", sample.toString()).out();
        assertEquals(417, config.getBytes(StandardCharsets.UTF_8).length);
        assertTrue(config.startsWith("boot: order=scsi0;ide2;net0\n") && config.contains("#qmdump#map:scsi0:drive-scsi0:"));
        CliRunner.Result v = ok("vma", "verify", "-v", sample.toString());
        assertTrue(v.out().contains("2 extents, 538112 bytes"), v.out());
        Path dir = tmp.resolve("sample");
        fails(ExitCodes.CORRUPT, "detected missing cluster 23 of device drive-scsi0", "vma", "extract", sample.toString(), dir.toString());
        assertFalse(Files.exists(dir), "nothing left after a failed extract");
    }

    @Test
    void importExportExtractRoundTrip() throws IOException {
        Path archive = create("vzdump-qemu-123-2023_11_14-22_13_20.vma.zst", "--ctime", "1700000000", "--interleave", "16");
        long chunksBefore = Files.exists(repo) ? CliRunner.chunkCount(repo) : 0;
        CliRunner.Result imp = ok("vma", "import", "--repository", repo.toString(), archive.toString());
        assertTrue(imp.err().contains("snapshot vm/123/2023-11-14T22:13:20Z"), imp.err());
        // disk0: 1 data chunk; disk1: 1 zero chunk (its own length); disk2: 2 data chunks and a 4 MiB zero chunk
        assertEquals(5, CliRunner.chunkCount(repo) - chunksBefore, "3 data chunks, 2 zero chunks");
        String files = ok("snapshot", "files", "--repository", repo.toString(), "vm/123").out();
        for (String f : List.of("drive-scsi0.img.fidx", "drive-virtio1.img.fidx", "drive-sata2.img.fidx",
                "qemu-server.conf.blob", "fw.conf.blob")) {
            assertTrue(files.contains(f), files);
        }
        Path restored = tmp.resolve("restored.img");
        ok("restore", "--repository", repo.toString(), "vm/123", "drive-sata2.img", restored.toString());
        assertArrayEquals(Files.readAllBytes(disk2), Files.readAllBytes(restored));

        Path outDir = tmp.resolve("dumps");
        Files.createDirectory(outDir);
        ok("vma", "export", "--repository", repo.toString(), "vm/123", outDir.toString());
        Path exported;
        try (Stream<Path> s = Files.list(outDir)) {
            exported = s.findFirst().orElseThrow();
        }
        assertTrue(exported.getFileName().toString().matches("vzdump-qemu-123-\\d{4}_\\d\\d_\\d\\d-\\d\\d_\\d\\d_\\d\\d\\.vma\\.zst"),
                exported.toString());
        Path dir = tmp.resolve("from-export");
        ok("vma", "extract", exported.toString(), dir.toString());
        assertExtracted(dir);

        fails(1, "backup timestamp is older than last backup", "vma", "import", "--repository", repo.toString(),
                archive.toString());
        fails(1, "--backup-id is needed", "vma", "import", "--repository", repo.toString(),
                create("plain.vma").toString());
    }

    @Test
    void standardInputAndOutput() throws IOException {
        CliRunner.Result created = ok("vma", "create", "-", "-c", conf.toString(), "-d", "drive-scsi0=" + disk0);
        byte[] archive = created.raw();
        assertEquals('V', archive[0]);
        InputStream saved = System.in;
        try {
            System.setIn(new ByteArrayInputStream(archive));
            CliRunner.Result list = ok("vma", "list", "-");
            assertTrue(list.out().contains("DEV: dev_id=1 size: " + Files.size(disk0) + " devname: drive-scsi0"));
            System.setIn(new ByteArrayInputStream(archive));
            Path dir = tmp.resolve("stdin");
            ok("vma", "extract", "-", dir.toString());
            assertArrayEquals(Files.readAllBytes(disk0), Files.readAllBytes(dir.resolve("disk-drive-scsi0.raw")));
        } finally {
            System.setIn(saved);
        }
    }

    @Test
    void badInput() throws IOException {
        Path archive = create("good.vma");
        byte[] a = Files.readAllBytes(archive);
        Path cut = tmp.resolve("cut.vma");
        Files.write(cut, Arrays.copyOf(a, a.length - 5000));
        Path dir = tmp.resolve("out");
        fails(ExitCodes.CORRUPT, "truncated archive", "vma", "extract", cut.toString(), dir.toString());
        fails(ExitCodes.CORRUPT, "truncated archive", "vma", "verify", cut.toString());
        assertFalse(Files.exists(dir));

        int h = java.nio.ByteBuffer.wrap(a).getInt(56);
        byte[] md5 = a.clone();
        md5[h + 100] ^= 1;
        Path bad = tmp.resolve("bad.vma");
        Files.write(bad, md5);
        fails(ExitCodes.CORRUPT, "wrong extent MD5 (stored", "vma", "verify", bad.toString());
        fails(ExitCodes.CORRUPT, "(at byte " + (h + 24) + ")", "vma", "extract", bad.toString(), dir.toString());
        assertFalse(Files.exists(dir));
        byte[] hdr = a.clone();
        hdr[40] ^= 1;
        Files.write(bad, hdr);
        fails(ExitCodes.CORRUPT, "wrong header MD5", "vma", "list", bad.toString());
        Files.writeString(bad, "not an archive at all");
        fails(ExitCodes.CORRUPT, "not a VMA archive", "vma", "list", bad.toString());

        Path big = tmp.resolve("big.conf");
        Files.write(big, new byte[65_536]);
        Path out = tmp.resolve("never.vma");
        fails(1, "config " + big + " is 65536 bytes", "vma", "create", out.toString(), "-c", big.toString(), "-d",
                "d=" + disk0);
        fails(1, "already exists", "vma", "create", archive.toString(), "-d", "d=" + disk0);
        fails(2, "expected NAME=PATH", "vma", "create", out.toString(), "-d", "d");
        fails(1, tmp.resolve("missing.raw").toString(), "vma", "create", out.toString(), "-d", "d=" + tmp.resolve("missing.raw"));
        fails(2, "--device", "vma", "create", out.toString());
        assertFalse(Files.exists(out));
        try (Stream<Path> s = Files.list(tmp)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().contains(".tmp-")), "no temporary archives");
        }

        fails(1, "already exists", "vma", "extract", archive.toString(), tmp.toString());
        fails(1, "does not exist", "vma", "extract", archive.toString(), tmp.resolve("no/such/dir").toString());
        Path notDir = tmp.resolve("file");
        Files.writeString(notDir, "x");
        fails(1, "does not exist", "vma", "extract", archive.toString(), notDir.resolve("sub").toString());
        fails(2, "unknown write mode 'fast'", "vma", "extract", "--writes", "fast", archive.toString(), dir.toString());
        assertEquals(2, cli().run("vma").exit());
    }

    @Test
    void deviceNamesCannotEscapeTheTargetDirectory() throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        VmaWriter w = new VmaWriter(buf, UUID.randomUUID(), 1_700_000_000L);
        int id = w.addDevice("../evil", CLUSTER);
        w.writeCluster(id, 0, new byte[CLUSTER], 0);
        w.finish();
        Path archive = tmp.resolve("evil.vma");
        Files.write(archive, buf.toByteArray());
        Path dir = tmp.resolve("sub").resolve("out");
        Files.createDirectory(tmp.resolve("sub"));
        fails(1, "device name '../evil' is not a plain file name", "vma", "extract", archive.toString(), dir.toString());
        try (Stream<Path> s = Files.walk(tmp)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().contains("evil.raw")), "nothing written");
        }
        assertFalse(Files.exists(dir));
    }

    @Test
    void directWritesOrAClearError() throws IOException {
        Path archive = create("d.vma");
        Path dir = tmp.resolve("direct");
        CliRunner.Result r = cli().run("vma", "extract", "--direct", "--write-zeroes", archive.toString(), dir.toString());
        if (r.exit() == 0) { // tmpfs has O_DIRECT since Linux 6.6
            assertExtracted(dir);
        } else {
            assertEquals(1, r.exit(), r.all());
            assertTrue(r.err().contains("cannot open with O_DIRECT (--direct)"), r.all());
            assertFalse(Files.exists(dir));
        }
    }
}
