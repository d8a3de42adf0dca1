package org.jpbs.client.pxar.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.jpbs.core.pxar.Metadata;
import org.jpbs.core.pxar.PxarDecoder;
import org.jpbs.core.pxar.PxarEncoder;
import org.jpbs.core.pxar.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hostile archive must not make the extractor link a file from outside the target directory
 * into it: a HARDLINK's target path is resolved below the target only, never through "..",
 * never through a symbolic link (one the archive itself created, or one already in the target),
 * and never to a directory. A valid archive's hardlink names an earlier file of the archive by
 * its plain path, which still works (and with writer threads).
 */
class HostileHardlinkTest {
    @TempDir
    Path dir;

    private static Metadata meta(long mode) {
        return Metadata.of(new Stat(mode, 0, 0, 0, 1_600_000_000L, 0));
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** An archive: a plain file 'f', a directory 'd' with 'g', a symlink 'evil' to {@code outside}, then {@code link} named 'stolen' pointing at {@code target}. */
    private static byte[] archive(Path outside, String target) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PxarEncoder enc = new PxarEncoder(out, meta(040755));
        long f = enc.beginFile(b("a-file"), meta(0100644), 3);
        enc.write(b("abc"), 0, 3);
        enc.endFile();
        enc.beginDirectory(b("d"), meta(040755));
        enc.beginFile(b("g"), meta(0100644), 1);
        enc.write(b("g"), 0, 1);
        enc.endFile();
        enc.endDirectory();
        enc.addSymlink(b("evil"), meta(0120777), b(outside.toString()));
        enc.addHardlink(b("stolen"), b(target), f); // the offset is that of a-file, the path is the attack
        enc.finish();
        return out.toByteArray();
    }

    private void extract(byte[] archive, Path out, int writers) throws IOException {
        try (PxarDecoder d = new PxarDecoder(new ByteArrayInputStream(archive))) {
            new TreeExtractor(TreeExtractor.Options.defaults(), w -> {}).writers(writers).extract(d, out);
        }
    }

    @Test
    void aHardlinkTargetOutsideTheTargetDirectoryIsRefused() throws Exception {
        Path outside = Files.createDirectory(dir.resolve("outside"));
        Path secret = Files.writeString(outside.resolve("secret"), "not yours");
        String[] targets = {"evil/secret", "../outside/secret", "d/../../outside/secret", "/evil/secret", "./evil/secret",
            secret.toString()}; // an absolute path is taken below the target: not there
        int n = 0;
        for (String target : targets) {
            for (int writers : new int[] {0, 3}) {
                Path out = dir.resolve("out" + n++);
                IOException e = assertThrows(IOException.class, () -> extract(archive(outside, target), out, writers), target);
                assertTrue(e.getMessage().contains("stolen"), e.getMessage());
                assertFalse(Files.exists(out.resolve("stolen"), LinkOption.NOFOLLOW_LINKS), target + ": the link was made");
                assertEquals(1, Files.getAttribute(secret, "unix:nlink"), target);
            }
        }
    }

    @Test
    void aHardlinkThroughASymlinkAlreadyInTheTargetIsRefused() throws Exception {
        Path outside = Files.createDirectory(dir.resolve("outside"));
        Path secret = Files.writeString(outside.resolve("secret"), "not yours");
        Path out = Files.createDirectory(dir.resolve("out"));
        Files.createSymbolicLink(out.resolve("pre"), outside); // left by someone in the restore target
        assertThrows(IOException.class, () -> extract(archive(outside, "pre/secret"), out, 0));
        assertFalse(Files.exists(out.resolve("stolen"), LinkOption.NOFOLLOW_LINKS));
        assertEquals(1, Files.getAttribute(secret, "unix:nlink"));
    }

    @Test
    void aHardlinkToADirectoryOrToNothingIsRefusedAndAPlainOneStillWorks() throws Exception {
        Path outside = Files.createDirectory(dir.resolve("outside"));
        assertThrows(IOException.class, () -> extract(archive(outside, "d"), dir.resolve("o1"), 0));
        assertThrows(IOException.class, () -> extract(archive(outside, "d/"), dir.resolve("o2"), 0));
        assertThrows(IOException.class, () -> extract(archive(outside, ""), dir.resolve("o3"), 0));
        for (int writers : new int[] {0, 3}) {
            Path out = dir.resolve("ok" + writers);
            extract(archive(outside, "d/g"), out, writers);
            assertEquals(Files.getAttribute(out.resolve("d/g"), "unix:ino"), Files.getAttribute(out.resolve("stolen"), "unix:ino"));
            Path out2 = dir.resolve("ok2-" + writers);
            extract(archive(outside, "a-file"), out2, writers);
            assertEquals("abc", Files.readString(out2.resolve("stolen")));
        }
    }
}
