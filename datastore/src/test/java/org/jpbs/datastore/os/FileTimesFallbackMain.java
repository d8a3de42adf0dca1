package org.jpbs.datastore.os;

import java.nio.file.Path;
import java.time.Instant;

/**
 * Run by {@link FileTimesTest} in a JVM started with {@code --illegal-native-access=deny}:
 * prints whether the native binding is available, then sets the atime of {@code args[0]}
 * to 2001-09-09T01:46:40Z and touches {@code args[1]}, both through the fallback.
 */
public final class FileTimesFallbackMain {
    private FileTimesFallbackMain() {}

    public static void main(String[] args) throws Exception {
        System.out.println("native=" + FileTimes.nativeAvailable());
        FileTimes.setAtime(Path.of(args[0]), Instant.ofEpochSecond(1_000_000_000L));
        FileTimes.touchAtime(Path.of(args[1]));
        System.out.println("done");
    }
}
