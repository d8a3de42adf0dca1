package org.jpbs.cli.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** A descriptor number the JVM opened itself is refused; others pass through as /proc/self/fd/N. */
class InheritedFdTest {
    @Test
    void theJvmsOwnDescriptorsAreRefused() throws IOException {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc");
        String javaHome = System.getProperty("java.home");
        int own = -1;
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path p : (Iterable<Path>) fds::iterator) {
                try {
                    String t = Files.readSymbolicLink(p).toString();
                    if (t.startsWith(javaHome + "/") || t.endsWith(".jar")) {
                        own = Integer.parseInt(p.getFileName().toString());
                        break;
                    }
                } catch (IOException | NumberFormatException e) {
                    // gone meanwhile
                }
            }
        }
        Assumptions.assumeTrue(own >= 0, "the JVM has no runtime file or jar open here");
        int fd = own;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> InheritedFd.path(fd, "--keyfd"));
        assertTrue(e.getMessage().startsWith("--keyfd: file descriptor " + fd + " was not given to jpbs"), e.getMessage());
    }

    @Test
    void otherNumbersPassAndNegativeOnesAreRefused() {
        assertEquals(Path.of("/proc/self/fd/100000"), InheritedFd.path(100000, "--keyfd"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> InheritedFd.path(-1, "PBS_ENCRYPTION_PASSWORD_FD"));
        assertEquals("PBS_ENCRYPTION_PASSWORD_FD: file descriptor must not be negative: -1", e.getMessage());
    }
}
