package org.jpbs.jobs.sync;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/** Temporary directories on tmpfs when there is one (a datastore's 65536 chunk directories are slow on disk). */
public final class ShmTempDirs implements TempDirFactory {
    @Override
    public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext context) throws Exception {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempDirectory(shm, "jpbs-sync-")
                : Files.createTempDirectory("jpbs-sync-");
    }
}
