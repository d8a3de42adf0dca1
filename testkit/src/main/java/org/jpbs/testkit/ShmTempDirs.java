package org.jpbs.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jpbs.datastore.os.AtomicFiles;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * {@code @TempDir} directories on {@code /dev/shm} (tmpfs) when it is writable, else in the
 * default temp directory: a datastore has 65,536 chunk directories, slow to create and remove on
 * a disk file system, about a second on tmpfs. {@link #deleteTree} removes such a tree faster
 * than JUnit's own cleanup.
 */
public class ShmTempDirs implements TempDirFactory {
    @Override
    public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext context) throws IOException {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempDirectory(shm, "jpbs-test-")
                : Files.createTempDirectory("jpbs-test-");
    }

    /**
     * Deletes {@code root} and everything below it, if it exists (no symbolic links followed);
     * the datastores in it go to {@link DatastorePool} while it has room.
     */
    public static void deleteTree(Path root) throws IOException {
        DatastorePool.recycleIn(root);
        AtomicFiles.deleteTree(root);
    }
}
