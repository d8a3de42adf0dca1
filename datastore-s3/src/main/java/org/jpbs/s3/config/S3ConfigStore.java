package org.jpbs.s3.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.jpbs.datastore.config.ConfigLock;
import org.jpbs.datastore.config.SectionConfigText;
import org.jpbs.datastore.os.AtomicFiles;

/**
 * {@code <config>/s3.cfg}: the S3 endpoints, PBS section-config syntax, section type
 * {@code s3client} ({@code docs/s3.md#s3cfg}). Writes are read-modify-write cycles under
 * {@code <config>/.s3.lck}; the file holds secret keys and is written with mode 0600.
 */
public final class S3ConfigStore {
    /** File name. */
    public static final String FILE = "s3.cfg";
    /** Lock file serialising writers. */
    public static final String LOCK_FILE = ".s3.lck";

    private final Path dir;
    private final Path file;

    private S3ConfigStore(Path dir) {
        this.dir = dir;
        this.file = dir.resolve(FILE);
    }

    /** The s3.cfg of {@code configDir} (need not exist until the first write). */
    public static S3ConfigStore open(Path configDir) {
        return new S3ConfigStore(configDir);
    }

    /** The file. */
    public Path file() {
        return file;
    }

    /**
     * Reads the file (absent: no endpoints).
     *
     * @throws IllegalArgumentException naming the file, line or endpoint if it does not parse
     */
    public SectionConfigText read() throws IOException {
        try {
            return SectionConfigText.parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
        } catch (NoSuchFileException e) {
            return SectionConfigText.empty(file.toString());
        }
    }

    /** All endpoints, in file order. */
    public List<S3EndpointConfig> list() throws IOException {
        List<S3EndpointConfig> out = new ArrayList<>();
        for (SectionConfigText.Section s : read().sections()) {
            if (!S3EndpointConfig.SECTION_TYPE.equals(s.type())) {
                // as PBS's section config: a misspelt type is an error, not an endpoint silently missing
                throw new IllegalArgumentException(file + ": unknown section type '" + s.type() + "' (section '" + s.id()
                        + "'; expected '" + S3EndpointConfig.SECTION_TYPE + "')");
            }
            out.add(parse(s));
        }
        return out;
    }

    /** One section as an endpoint; a bad value names the file too. */
    private S3EndpointConfig parse(SectionConfigText.Section s) {
        try {
            return S3EndpointConfig.parse(s.id(), s.props());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    /** One endpoint, or empty. */
    public Optional<S3EndpointConfig> get(String id) throws IOException {
        return read().section(S3EndpointConfig.SECTION_TYPE, id).map(this::parse);
    }

    /**
     * One read-modify-write cycle under the lock; writes (0600, atomically) only if the text changed.
     *
     * @throws IllegalArgumentException whatever {@code change} throws (nothing is written)
     */
    public SectionConfigText update(UnaryOperator<SectionConfigText> change) throws IOException {
        Files.createDirectories(dir);
        try (ConfigLock ignored = ConfigLock.acquire(dir.resolve(LOCK_FILE))) {
            SectionConfigText before = read();
            SectionConfigText after = change.apply(before);
            if (!after.text().equals(before.text())) {
                byte[] data = after.text().getBytes(StandardCharsets.UTF_8);
                Path tmp = AtomicFiles.writeTemp(file, data, 0, data.length, true);
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
                AtomicFiles.commit(tmp, file);
            }
            return after;
        }
    }

    /** Adds an endpoint; refuses an existing id ({@code "s3 endpoint 'ID' already exists"}). */
    public void create(S3EndpointConfig c) throws IOException {
        update(t -> {
            if (t.section(S3EndpointConfig.SECTION_TYPE, c.id()).isPresent()) {
                throw new IllegalArgumentException("s3 endpoint '" + c.id() + "' already exists");
            }
            return t.withSection(S3EndpointConfig.SECTION_TYPE, c.id(), c.toProperties());
        });
    }

    /** Replaces an endpoint's properties with {@code c}'s; refuses an unknown id. */
    public void replace(S3EndpointConfig c) throws IOException {
        update(t -> {
            if (t.section(S3EndpointConfig.SECTION_TYPE, c.id()).isEmpty()) {
                throw new IllegalArgumentException("s3 endpoint '" + c.id() + "' does not exist");
            }
            return t.withoutSection(S3EndpointConfig.SECTION_TYPE, c.id())
                    .withSection(S3EndpointConfig.SECTION_TYPE, c.id(), c.toProperties());
        });
    }

    /**
     * Removes an endpoint unless a datastore of {@code datastore.cfg} (in the same directory)
     * uses it in its {@code backend}.
     *
     * @throws IllegalArgumentException {@code "s3 endpoint 'ID' is in use by datastore 'NAME'"}, or an unknown id
     */
    public void removeUnused(String id) throws IOException {
        for (org.jpbs.datastore.config.DatastoreConfig d
                : org.jpbs.datastore.config.DatastoreConfigStore.open(dir).read().datastores()) {
            String backend = d.property("backend").orElse(null);
            if (backend != null && id.equals(S3BackendConfig.parse(backend).client())) {
                throw new IllegalArgumentException("s3 endpoint '" + id + "' is in use by datastore '" + d.name() + "'");
            }
        }
        remove(id);
    }

    /** Removes an endpoint; refuses an unknown id. */
    public void remove(String id) throws IOException {
        update(t -> {
            if (t.section(S3EndpointConfig.SECTION_TYPE, id).isEmpty()) {
                throw new IllegalArgumentException("s3 endpoint '" + id + "' does not exist");
            }
            return t.withoutSection(S3EndpointConfig.SECTION_TYPE, id);
        });
    }
}
