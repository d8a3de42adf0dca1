package org.jpbs.datastore.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.UnaryOperator;
import org.jpbs.datastore.os.AtomicFiles;

/**
 * {@code <config>/datastore.cfg} on disk ({@code docs/datastore-config.md#datastorecfg}, {@code docs/datastore-config.md#the-datastore-cache}): reads
 * it (through a replaceable {@link Reader}, so tests can count reads), and changes it in
 * read-modify-write cycles under {@code <config>/.datastore.lck}, written atomically (temp
 * file, fsync, rename, fsync of the directory), after which the shared generation
 * ({@link ConfigVersions}) is incremented. A missing file reads as an empty config.
 * Thread-safe.
 */
public final class DatastoreConfigStore {
    /** File name of the datastore config. */
    public static final String FILE = "datastore.cfg";
    /** Lock file serialising writers. */
    public static final String LOCK_FILE = ".datastore.lck";

    /** Reads the raw bytes of the config file; the default is {@link Files#readAllBytes}. */
    @FunctionalInterface
    public interface Reader {
        /**
         * @throws NoSuchFileException if the file does not exist
         * @throws IOException         on other read errors
         */
        byte[] read(Path file) throws IOException;
    }

    /**
     * What identifies a version of the file cheaply: size, modification time and file key
     * (device and inode), from one {@code stat}.
     *
     * @param exists     false if there is no file
     * @param size       bytes
     * @param mtimeNanos modification time, nanoseconds since the epoch
     * @param fileKey    device/inode object, or null
     */
    public record Stamp(boolean exists, long size, long mtimeNanos, Object fileKey) {
        static final Stamp MISSING = new Stamp(false, 0, 0, null);
    }

    private final Path dir;
    private final Path file;
    private final Reader reader;
    private final ConfigVersions versions;
    private final LongAdder reads = new LongAdder();

    private DatastoreConfigStore(Path dir, Reader reader, ConfigVersions versions) {
        this.dir = dir;
        this.file = dir.resolve(FILE);
        this.reader = reader;
        this.versions = versions;
    }

    /** The config of {@code configDir} (the directory need not exist until the first write). */
    public static DatastoreConfigStore open(Path configDir) {
        return open(configDir, Files::readAllBytes);
    }

    /** As {@link #open(Path)} with another reader (tests count config reads with it). */
    public static DatastoreConfigStore open(Path configDir, Reader reader) {
        Path d = configDir.toAbsolutePath().normalize();
        try {
            Files.createDirectories(d);
        } catch (IOException e) {
            // read-only use still works; writes will report the problem
        }
        return new DatastoreConfigStore(d, reader, ConfigVersions.open(d));
    }

    /** The config directory. */
    public Path configDir() {
        return dir;
    }

    /** The {@code datastore.cfg} path. */
    public Path file() {
        return file;
    }

    /** The current generation (one memory read). */
    public long generation() {
        return versions.datastoreGeneration();
    }

    /** How many times the file was read through this store. */
    public long reads() {
        return reads.sum();
    }

    /** The file's current {@link Stamp} (one {@code stat}). */
    public Stamp stamp() throws IOException {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            return new Stamp(true, a.size(), a.lastModifiedTime().to(TimeUnit.NANOSECONDS), a.fileKey());
        } catch (NoSuchFileException e) {
            return Stamp.MISSING;
        }
    }

    /**
     * Reads and parses the file (an absent file is an empty config).
     *
     * @throws IOException              if it cannot be read or is not UTF-8
     * @throws IllegalArgumentException naming the file and line if it does not parse
     */
    public DatastoreConfigFile read() throws IOException {
        reads.increment();
        byte[] data;
        try {
            data = reader.read(file);
        } catch (NoSuchFileException e) {
            return DatastoreConfigFile.empty(file.toString());
        }
        return DatastoreConfigFile.parse(SectionConfigText.decode(data, file), file.toString());
    }

    /**
     * One read-modify-write cycle under the config lock: reads the file, applies
     * {@code change}, writes the result atomically if it differs and increments the generation.
     *
     * @return the config as written
     * @throws IllegalArgumentException whatever {@code change} throws (nothing is written)
     * @throws IOException              if the lock, read or write fails (the old file stays)
     */
    public DatastoreConfigFile update(UnaryOperator<DatastoreConfigFile> change) throws IOException {
        Files.createDirectories(dir);
        try (ConfigLock ignored = ConfigLock.acquire(dir.resolve(LOCK_FILE))) {
            DatastoreConfigFile before = read();
            DatastoreConfigFile after = change.apply(before);
            if (!after.text().equals(before.text())) {
                AtomicFiles.replaceFile(file, after.bytes(), true);
                versions.bumpDatastore();
            }
            return after;
        }
    }
}
