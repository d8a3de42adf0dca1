package org.jpbs.cli.commands;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jpbs.cli.UsageException;
import org.jpbs.client.pxar.fs.TreeArchiver;
import org.jpbs.core.pxar.pattern.MatchEntry;

/**
 * The file-archive options of {@code jpbs backup} and the patterns of {@code jpbs restore} and
 * {@code jpbs catalog find}, checked and turned into the archiver's terms
 * ({@code docs/pxar.md#backup-and-restore}).
 */
final class TreeOptions {
    private TreeOptions() {}

    /**
     * The archiver's options: {@code --exclude} patterns, the file systems to include (the
     * root's, those of {@code --include-dev}, or all with {@code --all-file-systems}),
     * {@code --skip-lost-and-found}, {@code --entries-max}.
     *
     * @throws UsageException for an empty pattern, a bad --include-dev path or --entries-max below 1
     */
    static TreeArchiver.Options backup(List<String> excludes, boolean allFileSystems, List<Path> includeDevs,
            boolean skipLostAndFound, long entriesMax) {
        if (entriesMax < 1) {
            throw new UsageException("--entries-max must be at least 1, got " + entriesMax);
        }
        List<MatchEntry> patterns = patterns("--exclude", excludes, false);
        Set<Long> devices = null;
        if (!allFileSystems) {
            devices = new HashSet<>();
            for (Path p : includeDevs) {
                devices.add(device(p));
            }
        }
        return new TreeArchiver.Options(entriesMax, devices, skipLostAndFound, patterns);
    }

    /** Parses patterns of option {@code option} ({@code include}: --pattern; else --exclude). */
    static List<MatchEntry> patterns(String option, List<String> values, boolean include) {
        List<MatchEntry> out = new ArrayList<>();
        for (String v : values) {
            try {
                out.add(MatchEntry.parse(v.getBytes(StandardCharsets.UTF_8), include, false));
            } catch (IllegalArgumentException e) {
                throw new UsageException(option + " '" + v + "': " + e.getMessage(), e);
            }
        }
        return out;
    }

    /** The device of the file system at {@code p}, as the archiver numbers them (major << 32 | minor). */
    private static long device(Path p) {
        long dev;
        try {
            if (!Files.isDirectory(p)) {
                throw new UsageException("--include-dev " + p + ": not a directory");
            }
            dev = ((Number) Files.getAttribute(p, "unix:dev")).longValue();
        } catch (IOException | UnsupportedOperationException e) {
            throw new UsageException("--include-dev " + p + ": " + e.getMessage(), e);
        }
        // glibc's dev_t encoding (gnu_dev_major / gnu_dev_minor)
        long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & 0xfffff000L);
        long minor = (dev & 0xff) | ((dev >>> 12) & 0xffffff00L);
        return major << 32 | minor;
    }
}
