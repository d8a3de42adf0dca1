package org.jpbs.core.pxar.export;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.luben.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.jpbs.core.pxar.PxarAccessor;
import org.jpbs.core.pxar.ReadAt;
import org.jpbs.core.testing.SampleTree;
import org.junit.jupiter.api.Test;

/**
 * A directory of an archive as a zip and as a tar.zst ({@code pxar-file-download}): the
 * entries, their contents and types; tar headers with valid checksums; a hardlink inside the
 * exported directory stays a link, one whose file is outside becomes a copy.
 */
class ExportTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void zipOfADirectory() throws Exception {
        SampleTree t = new SampleTree(3, 2);
        PxarAccessor acc = new PxarAccessor(ReadAt.of(t.archive));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ZipExport.write(acc, acc.lookup(b("dir")), out);
        List<String> seen = new ArrayList<>();
        try (ZipInputStream z = new ZipInputStream(new ByteArrayInputStream(out.toByteArray()))) {
            ZipEntry e;
            while ((e = z.getNextEntry()) != null) {
                seen.add(e.getName() + "=" + new String(z.readAllBytes(), StandardCharsets.UTF_8)
                        + "@" + e.getLastModifiedTime().toInstant().getEpochSecond());
            }
        }
        assertEquals(List.of("dir/=@1700000000", "dir/hard=hello@1700000000", "dir/sub/=@1700000000",
                "dir/sub/deep.txt=deep@1700000000"), seen);
    }

    @Test
    void tarOfADirectoryAndOfTheRoot() throws Exception {
        SampleTree t = new SampleTree(3, 2);
        PxarAccessor acc = new PxarAccessor(ReadAt.of(t.archive));
        assertEquals(List.of("dir/ 5 0750", "dir/hard 0 0644 hello", "dir/link 2 0777 ->../a.txt", "dir/sub/ 5 0700",
                "dir/sub/deep.txt 0 0644 deep"), tar(acc, acc.lookup(b("dir"))));
        List<String> all = tar(acc, acc.root());
        assertEquals(List.of("a.txt 0 0644 hello", "big.bin 0 0644 300000 bytes", "dir/ 5 0750", "dir/hard 1 0644 ->a.txt",
                "dir/link 2 0777 ->../a.txt", "dir/sub/ 5 0700", "dir/sub/deep.txt 0 0644 deep", "fifo 6 0644", "many/ 5 0755",
                "many/f00000 0 0644 " + t.many(0).length + " bytes", "many/f00001 0 0644 " + t.many(1).length + " bytes"), all);
    }

    /** The entries of a tar.zst: name, type, mode and contents or link target; checksums checked. */
    private static List<String> tar(PxarAccessor acc, PxarAccessor.Node node) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TarExport.write(acc, node, out);
        List<String> seen = new ArrayList<>();
        try (InputStream in = new ZstdInputStream(new ByteArrayInputStream(out.toByteArray()))) {
            while (true) {
                byte[] h = in.readNBytes(512);
                assertEquals(512, h.length);
                if (h[0] == 0) {
                    assertEquals(512, in.readNBytes(512).length); // the second end block
                    assertEquals(-1, in.read());
                    return seen;
                }
                long sum = 0;
                for (int i = 0; i < 512; i++) {
                    sum += i >= 148 && i < 156 ? ' ' : h[i] & 0xff;
                }
                assertEquals(sum, Long.parseLong(field(h, 148, 6), 8), "checksum");
                assertEquals("ustar  ", field(h, 257, 7));
                String name = field(h, 0, 100);
                char type = (char) h[156];
                long size = Long.parseLong(field(h, 124, 11), 8);
                byte[] data = in.readNBytes((int) size);
                in.readNBytes((int) ((512 - size % 512) % 512));
                String mode = field(h, 100, 7).substring(3);
                String what = type == '0' ? (size > 100 ? size + " bytes" : new String(data, StandardCharsets.UTF_8))
                        : type == '1' || type == '2' ? "->" + field(h, 157, 100) : "";
                seen.add((name + " " + type + " " + mode + " " + what).strip());
            }
        }
    }

    private static String field(byte[] h, int off, int len) {
        int end = off;
        while (end < off + len && h[end] != 0) {
            end++;
        }
        return new String(h, off, end - off, StandardCharsets.UTF_8);
    }
}
