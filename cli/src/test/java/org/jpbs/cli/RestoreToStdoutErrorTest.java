package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restore to standard output whose writes fail (a full device, a reader that went away) must
 * end with an error, not exit 0 as if the data had arrived: {@code System.out} is a PrintStream
 * that swallows write errors, so data goes through {@link StdoutStream}. Run in a real process,
 * whose standard output is {@code /dev/full} or a pipe closed early.
 */
class RestoreToStdoutErrorTest {
    @TempDir(factory = FastTempDirs.class)
    Path tmp;

    private Path backUpImage() throws IOException {
        Path repo = tmp.resolve("ds");
        byte[] data = new byte[12 << 20];
        new Random(11).nextBytes(data);
        Path img = Files.write(tmp.resolve("disk.img"), data);
        CliRunner cli = new CliRunner(tmp.resolve("home"), Map.of());
        assertEquals(0, cli.run("backup", "-q", "--repository", repo.toString(), "--backup-type", "vm",
                "--backup-id", "100", "drive-scsi0.img:" + img).exit());
        return repo;
    }

    private static ProcessBuilder restoreToStdout(Path repo) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp", cp, Main.class.getName(),
                "restore", "-q", "--repository", repo.toString(), "vm/100", "drive-scsi0.img", "-"));
    }

    private static String stderrOf(Process p) throws Exception {
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "restore did not end");
        return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    @Test
    void aFullDeviceFailsTheRestore() throws Exception {
        Path repo = backUpImage();
        Process p = restoreToStdout(repo).redirectOutput(new File("/dev/full")).start();
        String err = stderrOf(p);
        assertEquals(1, p.exitValue(), err);
        assertTrue(err.contains("jpbs: error: cannot write to standard output: no space left on device"), err);
        assertEquals(1, err.strip().lines().count(), err);
    }

    @Test
    void aReaderThatStopsEarlyFailsTheRestore() throws Exception {
        Path repo = backUpImage();
        Process p = restoreToStdout(repo).start();
        try (InputStream in = p.getInputStream()) {
            assertEquals(1000, in.readNBytes(1000).length); // like `| head -c 1000`
        }
        String err = stderrOf(p);
        assertNotEquals(0, p.exitValue(), err);
        assertTrue(err.contains("cannot write to standard output"), err);
        assertEquals(1, err.strip().lines().count(), err);
    }

    @Test
    void textWrittenBeforeDataComesFirst() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream text = new PrintStream(sink, false, StandardCharsets.UTF_8);
        try (StdoutStream s = new StdoutStream(text, sink)) {
            text.print("header ");
            s.write("data".getBytes(StandardCharsets.UTF_8));
        }
        assertEquals("header data", sink.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aWriteErrorNamesStandardOutput() throws IOException {
        try (FileOutputStream full = new FileOutputStream("/dev/full")) {
            StdoutStream s = new StdoutStream(new PrintStream(OutputStream.nullOutputStream()), full);
            IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> s.write(new byte[4096]));
            assertTrue(e.getMessage().startsWith("cannot write to standard output: no space left on device"), e.getMessage());
        }
    }
}
