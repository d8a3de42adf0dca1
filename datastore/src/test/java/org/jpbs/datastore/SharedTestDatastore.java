package org.jpbs.datastore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jpbs.datastore.chunks.ChunkStores;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.os.AtomicFiles;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One datastore skeleton shared by the test classes of a test run: creating and deleting the
 * 65,536 {@code .chunks} directories costs seconds on slow disks, so tests that only need
 * "a datastore" use this one (with distinct digests and groups). Register with
 * {@code @ExtendWith(SharedTestDatastore.class)}; the datastore lives in the root context's
 * store and is deleted when the whole test plan has finished.
 */
public final class SharedTestDatastore implements BeforeAllCallback {
    private static volatile Path root;

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(SharedTestDatastore.class.getName(), k -> new Holder(), Holder.class);
    }

    /** The root of the shared datastore (created by the extension before the class's {@code @BeforeAll}). */
    public static Path root() {
        Path r = root;
        if (r == null) {
            throw new IllegalStateException("annotate the test class with @ExtendWith(SharedTestDatastore.class)");
        }
        return r;
    }

    /** Owns the temporary directory; closed (deleted) by JUnit at the end of the run. */
    static final class Holder implements AutoCloseable {
        private final Path dir;

        Holder() {
            try {
                dir = Files.createTempDirectory("jpbs-ds-test-");
                ChunkStores.create(dir.resolve("ds"), SyncLevel.NONE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            root = dir.resolve("ds");
        }

        @Override
        public void close() throws IOException {
            root = null;
            AtomicFiles.deleteTree(dir);
        }
    }
}
