package org.jpbs.datastore.jobs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.jpbs.datastore.config.ConfigLock;
import org.jpbs.datastore.config.SectionConfigText;
import org.jpbs.datastore.os.AtomicFiles;

/**
 * One job file in the config directory (the directory of {@code datastore.cfg}): read with a
 * cache that re-parses only when the file's size, modification time or inode changed, and
 * changed in read-modify-write cycles under {@code <config>/<kind's lock file>}, written
 * atomically (temp file, fsync, rename). A missing file reads as empty. Thread-safe.
 */
public final class JobConfigStore {
    private record Stamp(long size, long mtimeNanos, Object fileKey) {}

    private record Cached(Stamp stamp, JobConfigFile file) {}

    private final JobKind kind;
    private final Path dir;
    private final Path file;
    private volatile Cached cache;

    private JobConfigStore(JobKind kind, Path dir) {
        this.kind = kind;
        this.dir = dir;
        this.file = dir.resolve(kind.file());
    }

    /** The {@code kind} file of {@code configDir} (need not exist until the first write). */
    public static JobConfigStore open(Path configDir, JobKind kind) {
        return new JobConfigStore(Objects.requireNonNull(kind), configDir.toAbsolutePath().normalize());
    }

    /** The kind of file. */
    public JobKind kind() {
        return kind;
    }

    /** The file's path. */
    public Path file() {
        return file;
    }

    private Stamp stamp() throws IOException {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            return new Stamp(a.size(), a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS), a.fileKey());
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /**
     * The file as it is now (parsed again only if it changed on disk).
     *
     * @throws IOException              if it cannot be read or is not UTF-8
     * @throws IllegalArgumentException naming the file and line or section if it does not parse
     */
    public JobConfigFile read() throws IOException {
        Stamp s = stamp();
        Cached c = cache;
        if (c != null && Objects.equals(c.stamp(), s)) {
            return c.file();
        }
        JobConfigFile f = readFresh();
        cache = new Cached(s, f);
        return f;
    }

    private JobConfigFile readFresh() throws IOException {
        byte[] data;
        try {
            data = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            data = new byte[0];
        }
        return JobConfigFile.parse(kind, SectionConfigText.decode(data, file), file.toString());
    }

    /**
     * One locked read-modify-write cycle; nothing is written if {@code change} throws or changes nothing.
     *
     * @return the file as written
     * @throws IllegalArgumentException whatever {@code change} throws
     * @throws IOException              if the lock, read or write fails (the old file stays)
     */
    public JobConfigFile update(UnaryOperator<JobConfigFile> change) throws IOException {
        Files.createDirectories(dir);
        try (ConfigLock ignored = ConfigLock.acquire(dir.resolve(kind.lockFile()))) {
            JobConfigFile before = readFresh();
            JobConfigFile after = change.apply(before);
            if (!after.text().equals(before.text())) {
                AtomicFiles.replaceFile(file, after.text().getBytes(StandardCharsets.UTF_8), true);
                cache = null;
            }
            return after;
        }
    }
}
