package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Every environment variable the code reads is documented in README.md's "Environment" table. */
class ReadmeEnvironmentTest {
    private static final Pattern NAME = Pattern.compile("\"((?:PBS|JPBS)_[A-Z_]+)\"|getenv\\(\"([A-Z_]+)\"\\)");

    @Test
    void everyVariableReadIsInTheReadme() throws IOException {
        Path root = Path.of("").toAbsolutePath().getParent();
        Path readme = root.resolve("README.md");
        Assumptions.assumeTrue(Files.isRegularFile(readme), "README.md not found from " + Path.of("").toAbsolutePath());
        String text = Files.readString(readme);
        String table = text.substring(text.indexOf("## Environment"), text.indexOf("## Benchmarks"));
        Set<String> read = new TreeSet<>();
        for (String module : List.of("core", "datastore", "client", "server", "vma", "cli")) {
            Path src = root.resolve(module).resolve("src/main/java");
            if (!Files.isDirectory(src)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(src)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    Matcher m = NAME.matcher(Files.readString(f));
                    while (m.find()) {
                        read.add(m.group(1) != null ? m.group(1) : m.group(2));
                    }
                }
            }
        }
        assertTrue(read.contains("PBS_PASSWORD_FILE") && read.contains("PBS_RESTORE_MAX_THREADS"), read.toString());
        Set<String> missing = new TreeSet<>();
        for (String v : read) {
            if (!table.contains("`" + v + "`") && !table.contains("`" + v.replaceAll("_(FD|FILE)$", "") + "` (or")) {
                missing.add(v);
            }
        }
        assertEquals(Set.of(), missing, "read by the code but not in README's Environment table");
    }
}
