package org.jpbs.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** The one gate to {@code ../shared}: present → the path; absent → skip, or fail when CI=true. */
class SharedVectorsTest {
    @TempDir
    Path shared;

    @Test
    void presentPathIsReturned() throws Exception {
        Files.createDirectories(shared.resolve("vectors/real-pbs"));
        Path f = Files.writeString(shared.resolve("vectors/real-pbs/datastore.tar.gz"), "x");
        for (Map<String, String> env : java.util.List.of(Map.<String, String>of(), Map.of("CI", "true"))) {
            assertEquals(f, new SharedVectors(shared, env).path("vectors/real-pbs/datastore.tar.gz"));
            assertEquals(shared.resolve("vectors/real-pbs"), new SharedVectors(shared, env).path("vectors/real-pbs"));
        }
    }

    @Test
    void absentSkipsWithAMessageOutsideCi() {
        for (Map<String, String> env : java.util.List.of(Map.<String, String>of(), Map.of("CI", "false"), Map.of("CI", ""))) {
            TestAbortedException e = assertThrows(TestAbortedException.class,
                    () -> new SharedVectors(shared, env).path("vectors/real-client"));
            assertTrue(e.getMessage().contains(shared.resolve("vectors/real-client").toString()), e.getMessage());
            assertTrue(e.getMessage().contains("skipping"), e.getMessage());
        }
    }

    @Test
    void absentFailsInCi() {
        for (String ci : new String[] {"true", "TRUE", "1"}) {
            AssertionFailedError e = assertThrows(AssertionFailedError.class,
                    () -> new SharedVectors(shared, Map.of("CI", ci)).path("vectors/vma/sample.vma"));
            assertTrue(e.getMessage().startsWith("CI=true: compatibility vectors absent: "), e.getMessage());
            assertTrue(e.getMessage().contains(shared.resolve("vectors/vma/sample.vma").toString()), e.getMessage());
        }
        assertFalse(SharedVectors.inCi(Map.of()));
        assertTrue(SharedVectors.inCi(Map.of("CI", "true")));
    }

    /** This build's own shared directory: with CI=true every compatibility test needs it. */
    @Test
    void thisBuildHasItsVectorsInCi() {
        if (SharedVectors.inCi(System.getenv())) {
            assertTrue(Files.isDirectory(SharedVectors.root().resolve("vectors")), "CI=true but no vectors at "
                    + SharedVectors.root());
        }
    }
}
