package org.jpbs.client.pxar.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.jpbs.core.pxar.PxarDecoder;
import org.jpbs.core.pxar.ReadAt;
import org.junit.jupiter.api.Test;

/**
 * The archiver's side of {@code --change-detection-mode metadata}
 * ({@code docs/pxar.md#metadata-change-detection}) over an in-memory previous archive whose
 * "chunks" are exactly the offered ranges: unchanged files are not read (counted) and become
 * payload references, a changed file is read; the split archives restore to trees that archive
 * to the same unified bytes as the source.
 */
class MetadataReuseTest extends DiskDirTest {
    /** A previous split archive in memory; reuse copies the range into the new payload stream. */
    private static final class Previous implements PreviousArchive {
        final PreviousCursor cursor;
        final byte[] payload;
        final ByteArrayOutputStream out;
        final List<long[]> reused = new ArrayList<>();
        /** Reuse nothing: every run is read after all. */
        boolean refuse;
        /** Called at every lookup (on the encoder's thread). */
        Runnable onLookup = () -> { };

        Previous(byte[] meta, byte[] payload, ByteArrayOutputStream out) {
            this.cursor = previousCursor(meta);
            this.payload = payload;
            this.out = out;
        }

        @Override
        public File file(byte[] path) throws IOException {
            onLookup.run();
            return cursor.file(path);
        }

        @Override
        public Placement reuse(long start, long end, boolean continued) {
            if (refuse) {
                return null;
            }
            reused.add(new long[] {start, end});
            long at = out.size();
            out.write(payload, (int) start, (int) (end - start));
            return new Placement(at, end - start);
        }
    }

    private static PreviousCursor previousCursor(byte[] meta) {
        try {
            return new PreviousCursor(new ByteArrayInputStream(meta));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void seed(Path root, Random r) throws IOException {
        for (int d = 0; d < 3; d++) {
            Path sub = Files.createDirectories(root.resolve("d" + d));
            for (int f = 0; f < 20; f++) {
                byte[] data = new byte[r.nextInt(5000)];
                r.nextBytes(data);
                Path p = sub.resolve("f" + f);
                Files.write(p, data);
                Files.setLastModifiedTime(p, FileTime.from(1_600_000_000_000_000_007L + f, TimeUnit.NANOSECONDS));
            }
            Files.createSymbolicLink(sub.resolve("link"), Path.of("f1"));
        }
        Files.createLink(root.resolve("d2/hard"), root.resolve("d0/f3"));
        Files.write(root.resolve("empty"), new byte[0]);
    }

    @Test
    void unchangedFilesAreNotReadAndRestoreEqual() throws Exception {
        Path src = Files.createDirectories(dir.resolve("reuse-src"));
        seed(src, new Random(5));
        List<String> warnings = new ArrayList<>();

        ByteArrayOutputStream m1 = new ByteArrayOutputStream();
        ByteArrayOutputStream p1 = new ByteArrayOutputStream();
        TreeArchiver a1 = new TreeArchiver(TreeArchiver.Options.defaults(), null, warnings::add);
        a1.archive(src, m1, p1);
        assertEquals(61, a1.counters().filesRead()); // 60 files + empty, the hardlink once
        assertEquals(0, a1.counters().filesReused());

        ByteArrayOutputStream m2 = new ByteArrayOutputStream();
        ByteArrayOutputStream p2 = new ByteArrayOutputStream();
        Previous prev = new Previous(m1.toByteArray(), p1.toByteArray(), p2);
        TreeArchiver a2 = new TreeArchiver(TreeArchiver.Options.defaults(), null, warnings::add).reusing(prev);
        a2.archive(src, m2, p2);
        assertEquals(0, a2.counters().filesRead(), "no file read");
        assertEquals(0, a2.counters().bytesRead());
        assertEquals(61, a2.counters().filesReused());
        assertEquals(1, prev.reused.size(), "one contiguous run");
        assertRestoresEqual(src, m2.toByteArray(), p2.toByteArray(), "second");

        // change one file's contents (same size, new mtime): it is read, the runs around it reused
        Path changed = src.resolve("d1/f7");
        byte[] data = Files.readAllBytes(changed);
        data[0] ^= 1;
        Files.write(changed, data);
        ByteArrayOutputStream m3 = new ByteArrayOutputStream();
        ByteArrayOutputStream p3 = new ByteArrayOutputStream();
        Previous prev2 = new Previous(m2.toByteArray(), p2.toByteArray(), p3);
        TreeArchiver a3 = new TreeArchiver(TreeArchiver.Options.defaults(), null, warnings::add).reusing(prev2);
        a3.archive(src, m3, p3);
        assertEquals(1, a3.counters().filesRead());
        assertEquals(data.length, a3.counters().bytesRead());
        assertEquals(60, a3.counters().filesReused());
        assertEquals(2, prev2.reused.size(), "the runs before and after the changed file");
        assertRestoresEqual(src, m3.toByteArray(), p3.toByteArray(), "third");
        assertEquals(List.of(), warnings);
    }

    /** The split archive extracts to a tree whose unified archive equals the source's. */
    private static void assertRestoresEqual(Path src, byte[] meta, byte[] payload, String name) throws Exception {
        Path out = dir.resolve("reuse-" + name);
        try (PxarDecoder d = new PxarDecoder(new ByteArrayInputStream(meta))) {
            new TreeExtractor(TreeExtractor.Options.defaults(), w -> { }).extract(d, out, ReadAt.of(payload));
        }
        ByteArrayOutputStream want = new ByteArrayOutputStream();
        new TreeArchiver(TreeArchiver.Options.defaults(), null, w -> { }).archive(src, want);
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        new TreeArchiver(TreeArchiver.Options.defaults(), null, w -> { }).archive(out, got);
        assertArrayEquals(want.toByteArray(), got.toByteArray());
    }

    /**
     * Unchanged files hold no descriptor: they are closed once their metadata is read (not held
     * open while their run grows, nor while they wait for the encoder), so a tree of 1,500 files
     * keeps the process's open descriptors within a few of what it had before.
     */
    @Test
    void unchangedFilesHoldNoDescriptor() throws Exception {
        Path src = Files.createDirectories(dir.resolve("fds-src"));
        for (int d = 0; d < 3; d++) {
            Path sub = Files.createDirectories(src.resolve("d" + d));
            for (int f = 0; f < 500; f++) {
                Files.write(sub.resolve(String.format("f%04d", f)), new byte[] {(byte) f, (byte) d});
            }
        }
        ByteArrayOutputStream m1 = new ByteArrayOutputStream();
        ByteArrayOutputStream p1 = new ByteArrayOutputStream();
        new TreeArchiver(TreeArchiver.Options.defaults(), null, w -> { }).archive(src, m1, p1);

        long before = openDescriptors();
        long[] most = {0};
        ByteArrayOutputStream m2 = new ByteArrayOutputStream();
        ByteArrayOutputStream p2 = new ByteArrayOutputStream();
        Previous prev = new Previous(m1.toByteArray(), p1.toByteArray(), p2);
        prev.onLookup = () -> most[0] = Math.max(most[0], openDescriptors());
        TreeArchiver a = new TreeArchiver(TreeArchiver.Options.defaults(), null, w -> { }).reusing(prev);
        a.archive(src, m2, p2);
        assertEquals(1500, a.counters().filesReused());
        assertEquals(0, a.counters().filesRead());
        // readers (4) opening a file each, the directories being listed or holding queued entries
        assertTrue(most[0] - before <= 12, "descriptors open during the archive: " + most[0] + ", before: " + before);
        assertEquals(before, openDescriptors(), "descriptors open before and after");
    }

    /**
     * A run that cannot be reused (too much padding) is read after all: its files, closed after
     * their metadata was read, are opened again below the root and archived as in a first backup.
     */
    @Test
    void refusedRunsAreOpenedAgainAndRead() throws Exception {
        Path src = Files.createDirectories(dir.resolve("refused-src"));
        seed(src, new Random(9));
        List<String> warnings = new ArrayList<>();
        ByteArrayOutputStream m1 = new ByteArrayOutputStream();
        ByteArrayOutputStream p1 = new ByteArrayOutputStream();
        new TreeArchiver(TreeArchiver.Options.defaults(), null, warnings::add).archive(src, m1, p1);

        long before = openDescriptors();
        ByteArrayOutputStream m2 = new ByteArrayOutputStream();
        ByteArrayOutputStream p2 = new ByteArrayOutputStream();
        Previous prev = new Previous(m1.toByteArray(), p1.toByteArray(), p2);
        prev.refuse = true;
        TreeArchiver a = new TreeArchiver(TreeArchiver.Options.defaults(), null, warnings::add).reusing(prev);
        a.archive(src, m2, p2);
        assertEquals(61, a.counters().filesRead());
        assertEquals(0, a.counters().filesReused());
        assertArrayEquals(m1.toByteArray(), m2.toByteArray(), "read again: the first backup's metadata stream");
        assertArrayEquals(p1.toByteArray(), p2.toByteArray(), "and its payload stream");
        assertEquals(List.of(), warnings);
        assertEquals(before, openDescriptors());
    }

    private static long openDescriptors() {
        try (java.util.stream.Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
