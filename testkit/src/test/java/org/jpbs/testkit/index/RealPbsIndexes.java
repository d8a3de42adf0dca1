package org.jpbs.testkit.index;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jpbs.core.testing.SharedVectors;

/** Index files a real PBS wrote: extracted one by one from the shared vectors' datastore tarball. */
final class RealPbsIndexes {
    private RealPbsIndexes() {}

    /** The bytes of {@code member} of {@code vectors/real-pbs/datastore.tar.gz} (skips the test if the vectors are absent). */
    static byte[] file(String member) throws IOException {
        Path tar = SharedVectors.require("vectors/real-pbs/datastore.tar.gz");
        Path dir = Files.createTempDirectory("jpbs-real-index-");
        try {
            Process p = new ProcessBuilder("tar", "-xzf", tar.toString(), "-C", dir.toString(), member)
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new IOException("tar could not extract " + member + ": " + out);
            }
            return Files.readAllBytes(dir.resolve(member));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted extracting " + member, e);
        } finally {
            try (var s = Files.walk(dir)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }
}
