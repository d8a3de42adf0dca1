package org.jpbs.datastore.config;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A new datastore's directory overlaps a configured one ({@code docs/datastore-config.md#overlapping-paths}):
 * the same directory, or one inside the other. PBS refuses both when a datastore is created
 * (and its GC refuses to run on such a pair), because a datastore inside another is walked by
 * the outer one's listings and its chunk store shares the outer one's tree. The message is
 * PBS's for a nested one: {@code nested datastores not allowed: '<other>' already in "<its path>"}.
 */
public final class PathConflictException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    PathConflictException(String message) {
        super(message);
    }

    /**
     * Whether a datastore at {@code wanted} would overlap datastore {@code name} at {@code path}.
     * Paths are compared as written after {@link Path#normalize()}, whole names at a time
     * ({@code /srv/a} and {@code /srv/ab} do not overlap), as PBS compares them; symbolic links
     * are not resolved.
     *
     * @return the refusal, or empty if they do not overlap
     */
    public static Optional<PathConflictException> check(String name, Path path, Path wanted) {
        Path theirs = path.toAbsolutePath().normalize();
        Path mine = wanted.toAbsolutePath().normalize();
        if (theirs.equals(mine)) {
            return Optional.of(new PathConflictException("path " + wanted + " is already used by datastore '" + name + "'"));
        }
        if (mine.startsWith(theirs) || theirs.startsWith(mine)) {
            return Optional.of(new PathConflictException(
                    "nested datastores not allowed: '" + name + "' already in \"" + path + "\""));
        }
        return Optional.empty();
    }

    /**
     * Whether {@code wanted} lies inside a datastore directory that no configuration names (a
     * directory above it has {@code .chunks} and {@code .lock}).
     *
     * @return {@code nested datastores not allowed: <wanted> is inside the datastore <outer>}, or empty
     */
    public static Optional<PathConflictException> checkEnclosing(Path wanted) {
        return org.jpbs.datastore.chunks.ChunkStores.enclosingDatastore(wanted).map(outer -> new PathConflictException(
                "nested datastores not allowed: " + wanted + " is inside the datastore " + outer));
    }
}
