package org.jpbs.vma.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.vma.TestArchives;
import org.jpbs.vma.format.Vma;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** zstd, gzip and lzop framings: round trips, recognition by magic, and the real tools where installed. */
class CompressionTest {
    @TempDir
    Path tmp;

    static byte[] archive() throws IOException {
        return TestArchives.archive(List.<String[]>of(new String[] {"qemu-server.conf", "memory: 1\n"}),
                List.of(new TestArchives.Dev("d", TestArchives.image(4, 20 * Vma.CLUSTER_SIZE + 100))), 1, 58);
    }

    @Test
    void roundTripAndRecognition() throws IOException {
        byte[] a = archive();
        for (Compression c : Compression.values()) {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            try (OutputStream out = c.encoding(buf, c == Compression.ZSTD ? 2 : 0)) {
                out.write(a);
            }
            byte[] packed = buf.toByteArray();
            if (c != Compression.NONE) {
                assertTrue(packed.length < a.length, c + " compresses");
            }
            try (InputStream in = Compression.openDecoding(new ByteArrayInputStream(packed), "x")) {
                assertArrayEquals(a, in.readAllBytes(), c.toString());
            }
        }
    }

    @Test
    void fileNamesAndCliNames() {
        assertEquals(Compression.ZSTD, Compression.fromFileName("vzdump-qemu-100-2026_11_30-12_00_00.vma.zst"));
        assertEquals(Compression.GZIP, Compression.fromFileName("x.vma.gz"));
        assertEquals(Compression.LZO, Compression.fromFileName("x.VMA.LZO"));
        assertEquals(Compression.NONE, Compression.fromFileName("x.vma"));
        assertEquals(Compression.ZSTD, Compression.parse("zstd"));
        assertThrows(IllegalArgumentException.class, () -> Compression.parse("xz"));
    }

    @Test
    void unknownAndBzip2InputAreNamed() {
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> Compression.openDecoding(new ByteArrayInputStream("hello world".getBytes()), "h.vma"));
        assertTrue(e.getMessage().contains("not a VMA archive (starts with 68 65 6c 6c"), e.getMessage());
        CorruptDataException b = assertThrows(CorruptDataException.class,
                () -> Compression.openDecoding(new ByteArrayInputStream("BZh91AY".getBytes()), "h.vma.bz2"));
        assertTrue(b.getMessage().contains("bzip2-compressed archives are not supported"), b.getMessage());
    }

    /** Output of the real zstd, gzip and lzop tools reads back, and ours decompresses with them. */
    @Test
    void interoperatesWithTheCommandLineTools() throws Exception {
        byte[] a = archive();
        Path plain = tmp.resolve("a.vma");
        Files.write(plain, a);
        int tried = 0;
        for (Compression c : List.of(Compression.ZSTD, Compression.GZIP, Compression.LZO)) {
            String tool = switch (c) {
                case ZSTD -> "zstd";
                case GZIP -> "gzip";
                default -> "lzop";
            };
            if (!onPath(tool)) {
                continue;
            }
            tried++;
            Path packed = tmp.resolve("a.vma" + c.extension());
            run(List.of("sh", "-c", tool + " -c < " + plain + " > " + packed));
            try (InputStream in = Compression.openDecoding(Files.newInputStream(packed), packed.toString())) {
                assertArrayEquals(a, in.readAllBytes(), tool + " -> jpbs");
            }
            Path ours = tmp.resolve("ours.vma" + c.extension());
            try (OutputStream out = c.encoding(Files.newOutputStream(ours), 0)) {
                out.write(a);
            }
            Path back = tmp.resolve("back-" + tool);
            run(List.of("sh", "-c", tool + " -d -c < " + ours + " > " + back));
            assertArrayEquals(a, Files.readAllBytes(back), "jpbs -> " + tool);
        }
        Assumptions.assumeTrue(tried > 0, "none of zstd, gzip, lzop installed");
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    private static void run(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), cmd + ": " + out);
    }
}
