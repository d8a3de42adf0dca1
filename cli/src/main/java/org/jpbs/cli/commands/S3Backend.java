package org.jpbs.cli.commands;

import java.io.IOException;
import java.nio.file.Path;
import org.jpbs.cli.UsageException;
import org.jpbs.s3.client.S3Options;
import org.jpbs.s3.config.S3BackendConfig;
import org.jpbs.s3.config.S3ConfigStore;
import org.jpbs.s3.config.S3EndpointConfig;
import org.jpbs.s3.store.S3Datastore;

/**
 * The {@code --backend} of {@code jpbs datastore create} ({@code docs/s3.md#the-datastores-backend}):
 * parsed, its endpoint looked up in {@code s3.cfg}, and {@link #open} makes the local cache and
 * checks the bucket by writing the {@code .in-use} marker.
 */
record S3Backend(S3BackendConfig backend, S3EndpointConfig endpoint) {
    /**
     * @return null for no option or {@code type=filesystem}
     * @throws UsageException           for a malformed value
     * @throws IllegalArgumentException if the endpoint is not in {@code s3.cfg}
     */
    static S3Backend parse(String option, Path configDir) throws IOException {
        if (option == null) {
            return null;
        }
        S3BackendConfig b;
        try {
            b = S3BackendConfig.parse(option);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--" + e.getMessage(), e);
        }
        if (!b.isS3()) {
            return null;
        }
        S3EndpointConfig ep = S3ConfigStore.open(configDir).get(b.client()).orElseThrow(() ->
                new IllegalArgumentException("--backend: s3 endpoint '" + b.client() + "' does not exist in "
                        + configDir.resolve(S3ConfigStore.FILE) + " (add it with 'jpbs s3 endpoint create')"));
        return new S3Backend(b, ep);
    }

    /** Creates the cache skeleton at {@code path} and writes {@code <name>/.in-use} into the bucket. */
    void open(String name, Path path) throws IOException {
        long cache = backend.maxCacheSize() == null ? S3Datastore.DEFAULT_CACHE_BYTES : backend.maxCacheSize();
        try (S3Datastore ds = S3Datastore.open(path, endpoint, backend.bucket(), name, cache, S3Options.defaults())) {
            ds.objects().head(".in-use");
        }
    }
}
