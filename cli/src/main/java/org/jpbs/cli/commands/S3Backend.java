package org.jpbs.cli.commands;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.jpbs.cli.UsageException;
import org.jpbs.s3.client.S3Options;
import org.jpbs.s3.config.S3BackendConfig;
import org.jpbs.s3.config.S3ConfigStore;
import org.jpbs.s3.config.S3EndpointConfig;
import org.jpbs.s3.store.S3Datastore;

/**
 * The {@code --backend} of {@code jpbs datastore create} ({@code docs/s3.md#the-datastores-backend}):
 * parsed, its endpoint looked up in {@code s3.cfg}, and {@link #open} makes the local cache,
 * checks the {@code .in-use} marker and writes it.
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

    /**
     * Creates the cache skeleton at {@code path}, refuses a bucket whose datastore {@code name}
     * is in use ({@code .in-use} marker present, PBS's check and text) unless
     * {@code overwriteInUse}, then writes the marker naming this host
     * ({@code docs/s3.md#one-writer}).
     */
    void open(String name, Path path, boolean overwriteInUse) throws IOException {
        long cache = backend.maxCacheSize() == null ? S3Datastore.DEFAULT_CACHE_BYTES : backend.maxCacheSize();
        try (S3Datastore ds = S3Datastore.open(path, endpoint, backend.bucket(), name, cache, S3Options.defaults())) {
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
}
