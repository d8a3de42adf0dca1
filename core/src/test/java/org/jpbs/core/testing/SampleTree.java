package org.jpbs.core.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.jpbs.core.pxar.Metadata;
import org.jpbs.core.pxar.PxarEncoder;
import org.jpbs.core.pxar.Stat;
import org.jpbs.core.pxar.catalog.CatalogWriter;

/**
 * A seeded pxar archive and its catalog, made with the encoder and catalog writer the way the
 * backup client makes them, for tests that read archives (random access, the content API):
 * <pre>
 * /a.txt            "hello" (mtime {@link #MTIME})
 * /big.bin          {@link #big} (seeded, 300 000 bytes)
 * /dir/hard         hardlink to a.txt
 * /dir/link         symlink to ../a.txt
 * /dir/sub/deep.txt "deep"
 * /fifo             a fifo
 * /many/f0000..     {@code files} small seeded files of 1..4 KiB ({@link #many(int)})
 * </pre>
 * In the catalog the archive is the directory {@code root.pxar.didx}.
 */
public final class SampleTree {
    public static final long MTIME = 1_700_000_000L;
    public final byte[] big;
    public final byte[] archive;
    public final byte[] catalog;
    private final long seed;

    /** The tree with {@code files} files in {@code /many}. */
    public SampleTree(long seed, int files) throws IOException {
        this.seed = seed;
        this.big = new byte[300_000];
        new Random(seed).nextBytes(big);
        ByteArrayOutputStream pxar = new ByteArrayOutputStream();
        ByteArrayOutputStream cat = new ByteArrayOutputStream();
        CatalogWriter cw = new CatalogWriter(cat);
        cw.startDirectory(b("root.pxar.didx"));
        PxarEncoder e = new PxarEncoder(pxar, meta(0040755));
        long a = file(e, cw, "a.txt", b("hello"));
        file(e, cw, "big.bin", big);
        e.beginDirectory(b("dir"), meta(0040750));
        cw.startDirectory(b("dir"));
        e.addHardlink(b("hard"), b("a.txt"), a);
        cw.addOther('h', b("hard"));
        e.addSymlink(b("link"), meta(0120777), b("../a.txt"));
        cw.addOther('l', b("link"));
        e.beginDirectory(b("sub"), meta(0040700));
        cw.startDirectory(b("sub"));
        file(e, cw, "deep.txt", b("deep"));
        e.endDirectory();
        cw.endDirectory();
        e.endDirectory();
        cw.endDirectory();
        e.addSpecial(b("fifo"), meta(0010644));
        cw.addOther('p', b("fifo"));
        e.beginDirectory(b("many"), meta(0040755));
        cw.startDirectory(b("many"));
        for (int i = 0; i < files; i++) {
            file(e, cw, name(i), many(i));
        }
        e.endDirectory();
        cw.endDirectory();
        e.finish();
        cw.endDirectory();
        cw.finish();
        this.archive = pxar.toByteArray();
        this.catalog = cat.toByteArray();
    }

    /** The name of file {@code i} in {@code /many}. */
    public static String name(int i) {
        return String.format("f%05d", i);
    }

    /** The contents of file {@code i} in {@code /many}. */
    public byte[] many(int i) {
        Random r = new Random(seed * 31 + i);
        byte[] c = new byte[1024 + r.nextInt(3072)];
        r.nextBytes(c);
        return c;
    }

    private static long file(PxarEncoder e, CatalogWriter cw, String name, byte[] data) throws IOException {
        long off = e.beginFile(b(name), meta(0100644), data.length);
        e.write(data, 0, data.length);
        e.endFile();
        cw.addFile(b(name), data.length, MTIME);
        return off;
    }

    private static Metadata meta(long mode) {
        return Metadata.of(new Stat(mode, 0, 1000, 1000, MTIME, 0));
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
