package org.jpbs.core.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The compatibility vectors (real-client captures, the real-PBS datastore and configs, the VMA
 * sample) live outside the repository, in {@code ../shared} (system property
 * {@code jpbs.shared}, set by the build). Every test that reads them asks here: a file or
 * directory that is absent makes the test <em>skip</em> with a message naming it, except in
 * CI (environment {@code CI=true}, as CI services set it), where its absence <em>fails</em> the
 * test, so that the compatibility tests can never go silently green there.
 */
public final class SharedVectors {
    /** System property naming the shared directory. */
    public static final String PROPERTY = "jpbs.shared";

    private final Path root;
    private final Map<String, String> env;

    SharedVectors(Path root, Map<String, String> env) {
        this.root = Objects.requireNonNull(root, "root");
        this.env = Objects.requireNonNull(env, "env");
    }

    /** The shared directory of this build: {@code -Djpbs.shared}, else {@code ../shared}. */
    public static Path root() {
        return Path.of(System.getProperty(PROPERTY, "../shared"));
    }

    private static SharedVectors current() {
        return new SharedVectors(root(), System.getenv());
    }

    /**
     * {@code <shared>/<relative>} (e.g. {@code "vectors/real-pbs/datastore.tar.gz"}) if it exists.
     * Absent: the test is skipped (JUnit assumption) with a message naming the path, or, when
     * {@code CI=true}, fails.
     */
    public static Path require(String relative) {
        return current().path(relative);
    }

    /** True if the environment says this is a CI run ({@code CI=true} or {@code CI=1}). */
    public static boolean inCi(Map<String, String> env) {
        String ci = env.get("CI");
        return ci != null && (ci.equalsIgnoreCase("true") || ci.equals("1"));
    }

    Path path(String relative) {
        Path p = root.resolve(relative);
        if (Files.exists(p)) {
            return p;
        }
        String what = "compatibility vectors absent: " + p + " (check out the shared vectors next to the repository,"
                + " or set -D" + PROPERTY + "=DIR)";
        if (inCi(env)) {
            Assertions.fail("CI=true: " + what);
        }
        Assumptions.abort(what + ": skipping");
        throw new AssertionError("unreachable");
    }
}
