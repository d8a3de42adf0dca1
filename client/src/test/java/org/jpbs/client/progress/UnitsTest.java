package org.jpbs.client.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.jpbs.client.backup.BackupStats;
import org.jpbs.client.restore.RestoreStats;
import org.junit.jupiter.api.Test;

class UnitsTest {
    @Test
    void formatsBytesRatesAndDurations() {
        assertEquals("0 B", Units.bytes(0));
        assertEquals("1023 B", Units.bytes(1023));
        assertEquals("1.5 KiB", Units.bytes(1536));
        assertEquals("20.0 MiB", Units.bytes(20L << 20));
        assertEquals("3.0 GiB", Units.bytes(3L << 30));
        assertEquals("412.3 MiB/s", Units.rate(412.3 * 1024 * 1024));
        assertEquals("0:05", Units.duration(5));
        assertEquals("1:02:03", Units.duration(3723));
        assertEquals("1 chunk", Units.chunks(1));
        assertEquals("2 chunks", Units.chunks(2));
    }

    @Test
    void progressLineHasPercentAmountsAndEta() {
        Progress p = new Progress(4L << 30);
        p.advance(3L << 29);
        String line = p.render();
        assertTrue(line.startsWith("  37.5% 1.5 GiB of 4.0 GiB  "), line);
        assertTrue(line.contains(" MiB/s  ETA "), line);
        Progress empty = new Progress(0);
        assertEquals(1.0, empty.fraction());
        assertEquals(0, empty.etaSeconds());
    }

    @Test
    void rendererPrintsFinalLineOnClose() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        Progress p = new Progress(100);
        try (PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            try (ProgressRenderer r = ProgressRenderer.start(p, ps, "disk.img: ", false, 10_000)) {
                p.advance(100);
            }
        }
        String s = buf.toString(StandardCharsets.UTF_8);
        assertTrue(s.startsWith("disk.img:  100.0% 100 B of 100 B"), s);
        assertTrue(s.endsWith(System.lineSeparator()), s);
        try (ProgressRenderer r = ProgressRenderer.disabled()) {
            assertTrue(r != null);
        }
    }

    @Test
    void backupSummaryNamesNewReusedZeroAndSpeed() {
        BackupStats s = new BackupStats(20L << 20, 5, 2, 8L << 20, 2, 8L << 20, 1, 4L << 20, 3L << 20, 2_000_000_000L);
        String text = Summary.backup("disk.img.fidx", s);
        assertTrue(text.startsWith("disk.img.fidx: 20.0 MiB (20971520 bytes) in 5 chunks\n"), text);
        assertTrue(text.contains("new       2 chunks     8.0 MiB, stored 3.0 MiB compressed"), text);
        assertTrue(text.contains("reused    2 chunks     8.0 MiB"), text);
        assertTrue(text.contains("zero      1 chunk      4.0 MiB"), text);
        assertTrue(text.contains("duration  2.00 s, 10.0 MiB/s"), text);
    }

    @Test
    void restoreSummaryNamesFetchedZeroAndHoles() {
        RestoreStats s = new RestoreStats(20L << 20, 5, 4, 16L << 20, 1, 4L << 20, 4L << 20, 200_000_000L);
        String text = Summary.restore("disk.img.fidx", "out.img", s);
        assertTrue(text.startsWith("disk.img.fidx -> out.img: 20.0 MiB (20971520 bytes) in 5 chunks\n"), text);
        assertTrue(text.contains("fetched   4 chunks    16.0 MiB\n"), text);
        assertTrue(text.contains("zero      1 chunk      4.0 MiB, 4.0 MiB left as holes\n"), text);
        assertTrue(text.contains("duration  0.20 s, 100.0 MiB/s"), text);
        assertEquals(16L << 20, s.writtenBytes());
    }
}
