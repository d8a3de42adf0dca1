package org.jpbs.s3.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jpbs.datastore.config.DatastoreConfig;
import org.jpbs.datastore.config.DatastoreConfigStore;
import org.jpbs.datastore.config.PathConflictException;
import org.jpbs.datastore.os.AtomicFiles;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.s3.client.S3Options;
import org.jpbs.s3.config.S3BackendConfig;
import org.jpbs.s3.config.S3ConfigStore;
import org.jpbs.s3.config.S3EndpointConfig;

/**
 * Creates a datastore and adds it to {@code datastore.cfg}: what {@code jpbs datastore create
 * NAME PATH} and {@code POST config/datastore} both do ({@code docs/datastore-config.md},
 * {@code docs/s3.md#one-writer}). {@link #check} validates every value and looks up the
 * backend's endpoint before anything is made; {@link #create} then makes a directory datastore
 * (or, with {@code reuse}, opens the existing one), or for an {@code s3} backend the local cache,
 * refuses a bucket datastore whose {@code .in-use} marker exists (PBS's texts) unless
 * {@code overwriteInUse}, writes the marker naming this host, and records the section. What it
 * made is removed again if a later step fails.
 */
public final class DatastoreCreator {
    /** A bad parameter value, named as the API names it ({@code backend}, {@code name}, {@code path}). */
    public static final class BadParameter extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final String param;
        private final boolean syntax;

        BadParameter(String param, String message, boolean syntax, Throwable cause) {
            super(message, cause);
            this.param = param;
            this.syntax = syntax;
        }

        /** The parameter's name (API spelling, without dashes in front). */
        public String param() {
            return param;
        }

        /** True if the value is malformed (a usage error), false if it names something that does not exist. */
        public boolean syntax() {
            return syntax;
        }
    }

    private final DatastoreConfigStore store;
    private final DatastoreConfig config;
    private final S3BackendConfig backend;
    private final S3EndpointConfig endpoint;
    private final boolean reuse;
    private final boolean overwriteInUse;
    private final S3Options options;

    private DatastoreCreator(DatastoreConfigStore store, DatastoreConfig config, S3BackendConfig backend,
                             S3EndpointConfig endpoint, boolean reuse, boolean overwriteInUse, S3Options options) {
        this.store = store;
        this.config = config;
        this.backend = backend;
        this.endpoint = endpoint;
        this.reuse = reuse;
        this.overwriteInUse = overwriteInUse;
        this.options = options;
    }

    /** {@link #check(Path, String, Path, Map, String, boolean, boolean, S3Options)} with the default client options. */
    public static DatastoreCreator check(Path configDir, String name, Path path, Map<String, String> props,
                                         String backendText, boolean reuse, boolean overwriteInUse) throws IOException {
        return check(configDir, name, path, props, backendText, reuse, overwriteInUse, S3Options.defaults());
    }

    /**
     * Checks a new datastore before anything is created.
     *
     * @param configDir   the directory of {@code datastore.cfg} and {@code s3.cfg}
     * @param props       the other {@code datastore.cfg} properties (comment, gc-schedule, tuning …)
     * @param backendText the {@code backend} property string, or null (a directory datastore)
     * @throws BadParameter             for a bad name, path or backend, an endpoint that is not in {@code s3.cfg},
     *                                  or a path that is a configured datastore's or inside or around one
     * @throws IllegalArgumentException for another bad property or a known name (naming it)
     */
    public static DatastoreCreator check(Path configDir, String name, Path path, Map<String, String> props,
                                         String backendText, boolean reuse, boolean overwriteInUse, S3Options options)
            throws IOException {
        try {
            DatastoreConfig.checkName(name);
        } catch (IllegalArgumentException e) {
            throw new BadParameter("name", e.getMessage(), true, e);
        }
        if (!path.isAbsolute()) {
            throw new BadParameter("path", "expected an absolute path, '" + path + "' is not", true, null);
        }
        if (path.normalize().getParent() == null) {
            throw new BadParameter("path", "cannot create datastore in root path", true, null);
        }
        Map<String, String> all = new LinkedHashMap<>(props);
        all.put("path", path.normalize().toString());
        S3BackendConfig backend = null;
        S3EndpointConfig endpoint = null;
        if (backendText != null) {
            try {
                backend = S3BackendConfig.parse(backendText);
            } catch (IllegalArgumentException e) {
                throw new BadParameter("backend", e.getMessage().replaceFirst("^backend: ", ""), true, e);
            }
            if (backend.isS3()) {
                String id = backend.client();
                endpoint = S3ConfigStore.open(configDir).get(id).orElseThrow(() ->
                        new BadParameter("backend", "s3 endpoint '" + id + "' does not exist", false, null));
                all.put("backend", backend.format());
            } else {
                backend = null;
            }
        }
        DatastoreConfig cfg = new DatastoreConfig(name, all); // validates every option
        DatastoreConfigStore store = DatastoreConfigStore.open(configDir);
        try {
            store.read().withDatastore(cfg); // a known name or path is refused before anything is made
            PathConflictException.checkEnclosing(cfg.path()).ifPresent(e -> {
                throw e;
            });
        } catch (PathConflictException e) { // also an S3 datastore's local cache: it is the datastore's path
            throw new BadParameter("path", e.getMessage(), true, e);
        }
        return new DatastoreCreator(store, cfg, backend, endpoint, reuse, overwriteInUse, options);
    }

    /** The section that {@link #create} adds. */
    public DatastoreConfig config() {
        return config;
    }

    /** True for an S3 datastore. */
    public boolean isS3() {
        return backend != null;
    }

    /**
     * Creates (or opens) the datastore and adds its section to {@code datastore.cfg}.
     *
     * @throws IOException if the directory or the bucket cannot be used, the bucket datastore is
     *                     in use ({@code "Bucket already contains datastore in use by host <host>"}),
     *                     or the config cannot be written
     */
    public void create() throws IOException {
        Path path = config.path();
        boolean created;
        if (backend != null) {
            created = !Files.exists(path.resolve(".chunks"));
            try {
                claim(path);
            } catch (IOException | RuntimeException e) {
                if (created) {
                    removeCreated(path, e);
                }
                throw e;
            }
        } else if (reuse) {
            Datastore.open(path);
            created = false;
        } else {
            Datastore.create(path, config.tuning().syncLevel());
            created = true;
        }
        try {
            store.update(f -> f.withDatastore(config));
        } catch (IOException | RuntimeException e) {
            if (created) {
                removeCreated(path, e);
            }
            throw e;
        }
    }

    /** The local cache; the bucket is reachable, its datastore not in use (unless overwriting), the marker written. */
    private void claim(Path path) throws IOException {
        long cache = backend.maxCacheSize() == null ? S3Datastore.DEFAULT_CACHE_BYTES : backend.maxCacheSize();
        try (S3Datastore ds = S3Datastore.open(path, endpoint, backend.bucket(), config.name(), cache, options)) {
            if (!overwriteInUse) {
                Optional<String> host = ds.inUseBy();
                if (host.isPresent()) {
                    throw new IOException(host.get().isEmpty() ? "Bucket already contains datastore in use"
                            : "Bucket already contains datastore in use by host " + host.get());
                }
            }
            ds.claim();
        }
    }

    private static void removeCreated(Path path, Exception cause) {
        try {
            AtomicFiles.deleteTree(path.resolve(".chunks"));
            Files.deleteIfExists(path.resolve(".lock"));
            Files.deleteIfExists(path);
        } catch (IOException e) {
            cause.addSuppressed(e);
        }
    }
}
