package org.jpbs.server.backup;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Upload counters of one backup session, written to the manifest as
 * {@code unprotected.chunk_upload_stats = {"compressed_size","count","duplicates","size"}} at
 * finish ({@code docs/formats.md#manifest-indexjsonblob}, {@code docs/protocol.md#blobs-the-manifest-and-finish}). As in the manifests of
 * the real PBS datastore ({@code vectors/real-pbs/datastore.tar.gz}): {@code count} and
 * {@code compressed_size} cover uploaded chunks (plain and encoded bytes), {@code duplicates}
 * the uploaded chunks that were already stored, and {@code size} the plain chunk bytes plus
 * the encoded bytes of every uploaded blob (the manifest included). Thread-safe.
 */
public final class UploadStats {
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong size = new AtomicLong();
    private final AtomicLong compressedSize = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();

    /** Counts one uploaded chunk: {@code plain} and {@code encoded} bytes. */
    public void chunk(long plain, long encoded, boolean duplicate) {
        count.incrementAndGet();
        size.addAndGet(plain);
        compressedSize.addAndGet(encoded);
        if (duplicate) {
            duplicates.incrementAndGet();
        }
    }

    /** Counts one uploaded blob of {@code encoded} bytes. */
    public void blob(long encoded) {
        size.addAndGet(encoded);
    }

    /** Chunks uploaded. */
    public long count() {
        return count.get();
    }

    /** Uploaded chunks that were already in the chunk store. */
    public long duplicates() {
        return duplicates.get();
    }

    /** Plain bytes (chunks) plus blob bytes. */
    public long size() {
        return size.get();
    }

    /** Encoded bytes of the uploaded chunks. */
    public long compressedSize() {
        return compressedSize.get();
    }

    /** The manifest form. */
    public ObjectNode toJson() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("compressed_size", compressedSize.get());
        o.put("count", count.get());
        o.put("duplicates", duplicates.get());
        o.put("size", size.get());
        return o;
    }

    @Override
    public String toString() {
        return "count " + count + ", size " + size + ", compressed " + compressedSize + ", duplicates " + duplicates;
    }
}
