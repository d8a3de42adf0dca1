package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./jpbs} launcher's first-use build shows no terminal escape codes: Maven 3.8's
 * jansi writes {@code ESC[0m} even in batch mode with {@code -Dstyle.color=never}, which a new
 * user saw as {@code [0m[0m} before the first line. The launcher is run from a copy of the
 * repository's scripts with a stand-in {@code mvn} that writes what Maven writes.
 */
class LauncherBuildOutputTest {
    @TempDir
    Path tmp;

    @Test
    void theFirstUseBuildPrintsNoEscapeCodes() throws Exception {
        Path repo = Path.of(System.getProperty("user.dir")).getParent();
        Path root = tmp.resolve("repo");
        Files.createDirectories(root.resolve("scripts"));
        Files.copy(repo.resolve("jpbs"), root.resolve("jpbs"));
        Files.copy(repo.resolve("scripts/find-jdk.sh"), root.resolve("scripts/find-jdk.sh"));
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path mvn = bin.resolve("mvn");
        Files.writeString(mvn, "#!/bin/bash\nprintf '\\033[0m\\033[0mbuilt\\n'\nmkdir -p cli/target/lib && touch cli/target/jpbs-cli.jar\n");
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("jpbs").toString(), "--version");
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("JPBS_AOT", "0");
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        assertTrue(err.contains("jpbs: building (first use or sources changed)...\nbuilt\n"), err);
        assertFalse(err.contains("\u001b"), err);
        assertEquals(true, Files.exists(root.resolve("cli/target/jpbs-cli.jar")));
    }
}
