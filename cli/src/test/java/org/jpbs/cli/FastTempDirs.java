package org.jpbs.cli;

import org.jpbs.testkit.ShmTempDirs;

/**
 * Temporary directories on {@code /dev/shm} (tmpfs) when it is writable, else in the default
 * temp directory ({@link ShmTempDirs}); {@link #deleteTree} removes a datastore faster than
 * JUnit's own cleanup. The cli tests' name for it.
 */
public final class FastTempDirs extends ShmTempDirs {
}
