package org.jpbs.s3.client;

import java.io.IOException;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The operations an object-backed datastore needs, on keys relative to the datastore's prefix
 * in the bucket. Thread-safe; calls may run in parallel.
 *
 * <p>Errors: {@link ObjectStoreUnavailableException} when the endpoint did not answer properly
 * after the retries (connection lost, truncated answer, 5xx, throttling): the object's state
 * is unknown, nothing may be concluded from it. Any other {@link IOException} is a definite
 * refusal (403, bad request).
 */
public interface ObjectStore extends AutoCloseable {
    /**
     * An object in a listing.
     *
     * @param key          key relative to the store prefix
     * @param size         bytes
     * @param lastModified the store's modification time
     */
    record ObjectInfo(String key, long size, Instant lastModified) {}

    /**
     * Uploads an object.
     *
     * @param ifAbsent only if no object has the key ({@code If-None-Match: *}; without the
     *                 header when the endpoint has the {@code skip-if-none-match-header} quirk,
     *                 then the existing object is checked by a HEAD first)
     * @return false if {@code ifAbsent} and the object existed (nothing written)
     */
    boolean put(String key, byte[] data, boolean ifAbsent) throws IOException;

    /**
     * A downloaded object.
     *
     * @param data         its bytes
     * @param lastModified the store's modification time
     */
    record Fetched(byte[] data, Instant lastModified) {}

    /** Downloads an object, or empty if there is none. */
    Optional<Fetched> get(String key) throws IOException;

    /**
     * Downloads an object whose bytes carry their own check (a chunk's CRC): bytes that pass
     * {@code intact} are taken as they came; others are checked as {@link #get(String)} checks
     * (a damaged answer is fetched again, an object that holds those bytes is returned).
     */
    default Optional<Fetched> get(String key, Predicate<byte[]> intact) throws IOException {
        return get(key);
    }

    /** The object's address for messages: {@code s3://<bucket>/<prefix><key>}. */
    String describe(String key);

    /** An object's size and time, or empty if there is none. */
    Optional<ObjectInfo> head(String key) throws IOException;

    /** Deletes objects (absent ones are not an error). */
    void delete(Collection<String> keys) throws IOException;

    /** Lists the objects whose key starts with {@code prefix}, in key order. */
    void list(String prefix, Consumer<ObjectInfo> each) throws IOException;

    /** Requests made so far (each HTTP request, retries included, counts once). */
    long requests();

    @Override
    void close();
}
