package org.jpbs.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * Puts {@code @TempDir} directories on {@code /dev/shm} when it is a writable tmpfs: every test
 * datastore has 65,536 chunk directories, and removing them from a disk mounted with
 * {@code discard} takes about a minute each. Falls back to the default temp directory.
 * Registered in {@code junit-platform.properties}.
 */
public final class ShmTempDirFactory implements TempDirFactory {
    @Override
    public Path createTempDirectory(AnnotatedElementContext elementContext, ExtensionContext extensionContext)
            throws IOException {
        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm) && Files.isWritable(shm)) {
            return Files.createTempDirectory(shm, "jpbs-server-test-");
        }
        return Files.createTempDirectory("jpbs-server-test-");
    }
}
