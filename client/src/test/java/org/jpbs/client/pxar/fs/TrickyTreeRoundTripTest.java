package org.jpbs.client.pxar.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jpbs.core.pxar.PxarDecoder;
import org.jpbs.core.pxar.PxarEntry;
import org.junit.jupiter.api.Test;

/**
 * A generated (seeded) tree with the hard cases: 200 nested directories, 10,000 entries in
 * one directory, 255-byte and non-UTF-8 names, sparse and all-zero files, hardlinks across
 * directories, symlinks, a fifo. Archive, extract, archive again: the two archives are equal
 * byte for byte, and the sparse file is restored sparse.
 */
class TrickyTreeRoundTripTest extends DiskDirTest {
    @Test
    void trickyTreeRestoresEqual() throws Exception {
        Path src = Files.createDirectory(dir.resolve("src"));
        Random rnd = new Random(17);
        Path deep = src;
        for (int i = 0; i < 200; i++) {
            deep = Files.createDirectory(deep.resolve("d" + (i % 10)));
        }
        Files.write(deep.resolve("bottom.bin"), bytes(rnd, 5000));
        Path many = Files.createDirectory(src.resolve("many"));
        for (int i = 0; i < 10_000; i++) {
            Files.write(many.resolve(String.format("e%05d", i)), bytes(rnd, rnd.nextInt(40)));
        }
        Files.writeString(src.resolve("L".repeat(251) + ".txt"), "long name\n");
        Files.createSymbolicLink(src.resolve("link"), Path.of("many/e00001"));
        Path a = Files.createDirectory(src.resolve("a"));
        Path b = Files.createDirectory(src.resolve("b"));
        Files.write(a.resolve("orig"), bytes(rnd, 70000));
        Files.createLink(b.resolve("hl"), a.resolve("orig"));
        Files.createLink(src.resolve("zz-hl"), a.resolve("orig"));
        try (var ch = java.nio.channels.FileChannel.open(src.resolve("sparse"), java.nio.file.StandardOpenOption.CREATE_NEW,
                java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(bytes(rnd, 10000)), 3 << 20);
            ch.write(java.nio.ByteBuffer.wrap(bytes(rnd, 123)), (10 << 20) - 123);
        }
        Files.write(src.resolve("zeros"), new byte[3 * 4096 + 17]);
        Files.write(src.resolve("empty"), new byte[0]);
        VectorTrees.run(src, "mkfifo", "fifo");
        try (Sys sys = new Sys()) {
            int fd = sys.openat(Libc.AT_FDCWD, src.toString().getBytes(StandardCharsets.UTF_8), Libc.O_RDONLY | Libc.O_DIRECTORY, 0);
            for (byte[] odd : new byte[][] {{(byte) 0xff, (byte) 0xfe, 'x'}, {'a', (byte) 0x80, 'b'}, {(byte) 0xc3, '(', ' '}}) {
                int f = sys.openat(fd, odd, Libc.O_WRONLY | Libc.O_CREAT | Libc.O_EXCL, 0644);
                sys.writeAll(f, odd, 0, odd.length);
                sys.close(f);
            }
            sys.mkdirat(fd, new byte[] {'d', (byte) 0xe9}, 0755);
            sys.close(fd);
        }

        List<String> warnings = new ArrayList<>();
        byte[] first = archive(src, warnings);
        Path restored = dir.resolve("restored");
        try (PxarDecoder d = new PxarDecoder(new ByteArrayInputStream(first))) {
            new TreeExtractor(TreeExtractor.Options.defaults(), warnings::add).extract(d, restored);
        }
        byte[] second = archive(restored, warnings);
        assertEquals(List.of(), warnings);
        assertArrayEquals(first, second);

        long size = (Long) Files.getAttribute(restored.resolve("sparse"), "unix:size");
        assertEquals(10L << 20, size);
        try (Sys sys = new Sys()) {
            Sys.FileStat st = new Sys.FileStat();
            sys.statx(Libc.AT_FDCWD, restored.resolve("sparse").toString().getBytes(StandardCharsets.UTF_8), 0, st);
            assertTrue(st.blocks * 512 < (1 << 20), "sparse file restored with " + st.blocks + " blocks");
            sys.statx(Libc.AT_FDCWD, restored.resolve("zeros").toString().getBytes(StandardCharsets.UTF_8), 0, st);
            assertEquals(3 * 4096 + 17, st.size);
        }
        assertEquals(3, Files.getAttribute(restored.resolve("a/orig"), "unix:nlink"));
        int entries = 0;
        try (PxarDecoder d = new PxarDecoder(new ByteArrayInputStream(first))) {
            PxarEntry e;
            while ((e = d.next()) != null) {
                entries++;
            }
        }
        assertTrue(entries > 10_000 + 2 * 200, "entries " + entries);
    }

    /** The archive {@link TreeArchiver} makes of {@code root} with the defaults. */
    static byte[] archive(Path root, List<String> warnings) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new TreeArchiver(TreeArchiver.Options.defaults(), null, warnings::add).archive(root, out);
        return out.toByteArray();
    }

    static byte[] bytes(Random rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }
}
