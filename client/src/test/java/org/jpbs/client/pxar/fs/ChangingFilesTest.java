package org.jpbs.client.pxar.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jpbs.core.pxar.PxarDecoder;
import org.jpbs.core.pxar.PxarEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files that grow, shrink or vanish while the tree is archived: every archive still decodes
 * (goodbye tables checked) with each file's contents exactly as long as its entry says, and
 * the changes are reported as warnings, as the PBS client does.
 */
class ChangingFilesTest {
    @Test
    void filesChangingWhileReadNeverCorruptTheArchive(@TempDir Path dir) throws Exception {
        Path root = Files.createDirectory(dir.resolve("root"));
        Path growing = root.resolve("growing");
        Path shrinking = root.resolve("shrinking");
        Files.write(growing, new byte[1 << 20]);
        Files.write(shrinking, new byte[4 << 20]);
        for (int i = 0; i < 50; i++) {
            Files.writeString(root.resolve("v" + i), "x");
        }
        AtomicBoolean stop = new AtomicBoolean();
        Thread changer = new Thread(() -> {
            byte[] chunk = new byte[64 << 10];
            int round = 0;
            while (!stop.get()) {
                try (FileChannel g = FileChannel.open(growing, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
                        FileChannel s = FileChannel.open(shrinking, StandardOpenOption.WRITE)) {
                    g.write(ByteBuffer.wrap(chunk));
                    s.truncate((round % 2 == 0) ? 1 << 20 : 0);
                    s.write(ByteBuffer.wrap(new byte[4 << 20]), 0);
                    Path v = root.resolve("v" + (round % 50));
                    Files.deleteIfExists(v);
                    Files.writeString(v, "x");
                } catch (java.io.IOException e) {
                    // the archiver may hold nothing that blocks this; keep changing
                }
                round++;
            }
        });
        changer.start();
        List<String> warnings = Collections.synchronizedList(new ArrayList<>());
        try {
            for (int run = 0; run < 8; run++) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                new TreeArchiver(TreeArchiver.Options.defaults(), null, warnings::add).archive(root, out);
                try (PxarDecoder d = new PxarDecoder(new ByteArrayInputStream(out.toByteArray()))) {
                    PxarEntry e;
                    while ((e = d.next()) != null) {
                        if (e.kind() == PxarEntry.Kind.FILE) {
                            assertEquals(e.fileSize(), d.contents().readAllBytes().length, e.displayPath());
                        }
                    }
                }
            }
        } finally {
            stop.set(true);
            changer.join();
        }
        for (String w : warnings) {
            assertTrue(w.startsWith("warning: file size increased while reading")
                    || w.startsWith("warning: file size shrunk while reading")
                    || w.startsWith("warning: file vanished while reading"), w);
        }
    }
}
