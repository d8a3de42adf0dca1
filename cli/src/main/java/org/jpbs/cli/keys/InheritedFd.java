package org.jpbs.cli.keys;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file descriptor number the user passed in ({@code --keyfd N}, {@code PBS_*_FD=N}), as a
 * path {@code /proc/self/fd/N}. Java cannot tell a descriptor the shell handed over from one
 * the JVM opened itself, so a number the shell never opened would silently read the JVM's own
 * files (its module image, a jar). Descriptors that point at the Java runtime, a jar or the
 * startup cache are therefore refused, naming what they point at.
 */
final class InheritedFd {
    private InheritedFd() {}

    /**
     * The path to read descriptor {@code n} through.
     *
     * @param what the option or variable, for messages (e.g. {@code --keyfd})
     * @throws IllegalArgumentException if {@code n} is negative or is one of the JVM's own descriptors
     */
    static Path path(int n, String what) {
        if (n < 0) {
            throw new IllegalArgumentException(what + ": file descriptor must not be negative: " + n);
        }
        Path p = Path.of("/proc/self/fd/" + n);
        String target;
        try {
            target = Files.readSymbolicLink(p).toString();
        } catch (IOException | UnsupportedOperationException e) {
            return p; // not open (the read then fails with a message naming it) or no /proc
        }
        String javaHome = System.getProperty("java.home", "/nonexistent");
        if (target.startsWith(javaHome + "/") || target.endsWith(".jar") || target.endsWith(".aot")
                || target.endsWith(".jsa")) {
            throw new IllegalArgumentException(what + ": file descriptor " + n
                    + " was not given to jpbs (the JVM itself has it open on " + target + ")");
        }
        return p;
    }
}
