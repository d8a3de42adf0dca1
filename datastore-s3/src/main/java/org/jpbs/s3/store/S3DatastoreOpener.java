package org.jpbs.s3.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.jpbs.datastore.config.DatastoreConfig;
import org.jpbs.datastore.config.DatastoreOpener;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.s3.client.S3Options;
import org.jpbs.s3.config.S3BackendConfig;
import org.jpbs.s3.config.S3ConfigStore;
import org.jpbs.s3.config.S3EndpointConfig;

/**
 * The datastore opener of the composition roots ({@code docs/s3.md#opening}): a datastore whose
 * {@code backend} is {@code type=s3,…} is opened as an {@link S3Datastore} (endpoint from
 * {@code <config>/s3.cfg}, its {@code path} the local cache, which is first filled from the
 * bucket: a fresh server with an empty cache restores); any other as a directory datastore.
 */
public final class S3DatastoreOpener implements DatastoreOpener {
    private final Path configDir;
    private final S3Options options;

    /** @param configDir the directory of {@code datastore.cfg} and {@code s3.cfg} */
    public S3DatastoreOpener(Path configDir) {
        this(configDir, S3Options.defaults());
    }

    /** As {@link #S3DatastoreOpener(Path)} with client options (tests: fewer retries). */
    public S3DatastoreOpener(Path configDir, S3Options options) {
        this.configDir = configDir;
        this.options = options;
    }

    @Override
    public Datastore open(DatastoreConfig c) throws IOException {
        Optional<String> text = c.property("backend");
        if (text.isEmpty()) {
            return DIRECTORY.open(c);
        }
        S3BackendConfig backend;
        try {
            backend = S3BackendConfig.parse(text.get());
        } catch (IllegalArgumentException e) {
            throw new IOException("datastore '" + c.name() + "': " + e.getMessage(), e);
        }
        if (!backend.isS3()) {
            return DIRECTORY.open(c);
        }
        S3EndpointConfig ep = S3ConfigStore.open(configDir).get(backend.client()).orElseThrow(() ->
                new IOException("datastore '" + c.name() + "': s3 endpoint '" + backend.client()
                        + "' does not exist in " + S3ConfigStore.FILE));
        long cache = backend.maxCacheSize() == null ? S3Datastore.DEFAULT_CACHE_BYTES : backend.maxCacheSize();
        S3Datastore s3 = S3Datastore.open(c.path(), ep, backend.bucket(), c.name(), cache, options);
        try {
            s3.refresh();
        } catch (IOException | RuntimeException e) {
            s3.close();
            throw e;
        }
        return s3.datastore();
    }
}
