package org.jpbs.core.pxar.catalog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Catalog varints, a written catalog read back, and corrupt catalogs refused. */
class CatalogTest {
    private static String hexSigned(long v) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        CatalogVarint.writeSigned(o, v);
        return HexFormat.of().formatHex(o.toByteArray());
    }

    @Test
    void varintsAsPbsWritesThem() throws Exception {
        assertEquals("80e2cfaa06", hexSigned(1700000000L)); // the captured catalog's mtime bytes
        assertEquals("00", hexSigned(0));
        assertEquals("8100", hexSigned(-1));
        assertEquals("ff00", hexSigned(-127));
        assertEquals("808100", hexSigned(-128));
        for (long v : new long[] {0, 1, 127, 128, -1, -126, -(1L << 12) - 1, -31536000L, Long.MIN_VALUE, Long.MAX_VALUE}) {
            ByteArrayOutputStream o = new ByteArrayOutputStream();
            CatalogVarint.writeSigned(o, v);
            byte[] b = o.toByteArray();
            assertEquals(v, new CatalogVarint.Reader(b, 0, b.length).readSigned(), "value " + v);
        }
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        CatalogVarint.writeUnsigned(o, -1L);
        byte[] b = o.toByteArray();
        assertEquals(10, b.length);
        assertEquals(-1L, new CatalogVarint.Reader(b, 0, b.length).readUnsigned());
    }

    @Test
    void everyEntryTypeReadsBack() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CatalogWriter w = new CatalogWriter(out);
        w.startDirectory(b("root.pxar.didx"));
        w.startDirectory(b("sub"));
        w.addFile(b("old"), 5, -31536000L);
        w.endDirectory();
        w.addFile(b("big"), 1L << 40, 1700000000L);
        for (char t : "lhbcps".toCharArray()) {
            w.addOther(t, b("x" + t));
        }
        w.endDirectory();
        w.finish();
        CatalogReader r = new CatalogReader(out.toByteArray());
        List<CatalogEntry> top = r.list(r.root());
        assertEquals(1, top.size());
        List<CatalogEntry> archive = r.list(top.get(0));
        assertEquals("d sub|f big|l xl|h xh|b xb|c xc|p xp|s xs", String.join("|",
                archive.stream().map(e -> e.type() + " " + e.displayName()).toList()));
        assertEquals(1L << 40, archive.get(1).size());
        CatalogEntry old = r.list(archive.get(0)).get(0);
        assertEquals(-31536000L, old.mtime());
        assertArrayEquals(b("old"), old.name());
    }

    @Test
    void corruptCatalogsAreRefused() throws Exception {
        assertThrows(CatalogFormatException.class, () -> new CatalogReader(new byte[40]));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CatalogWriter w = new CatalogWriter(out);
        w.addFile(b("f"), 1, 1);
        w.finish();
        byte[] c = out.toByteArray();
        c[c.length - 8] = 100; // root offset past the end
        assertThrows(CatalogFormatException.class, () -> new CatalogReader(c));
        byte[] d = out.toByteArray();
        d[10] = 'z'; // unknown type letter in the root table
        CatalogReader r = new CatalogReader(d);
        assertThrows(CatalogFormatException.class, () -> r.list(r.root()));
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
