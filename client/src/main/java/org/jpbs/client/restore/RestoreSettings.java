package org.jpbs.client.restore;

import org.jpbs.client.progress.ProgressListener;
import org.jpbs.core.crypto.CryptConfig;

/**
 * The settings both restore engines share ({@link ImageRestore} for a local chunk source,
 * {@link PipelinedRestore} for a remote reader session), as fluent setters returning the engine.
 *
 * @param <T> the engine type
 */
public abstract sealed class RestoreSettings<T extends RestoreSettings<T>> permits ImageRestore, PipelinedRestore {
    int workers = Runtime.getRuntime().availableProcessors();
    boolean sparse;
    boolean verify = true;
    CryptConfig crypt;
    ProgressListener progress = ProgressListener.NONE;

    RestoreSettings() {}

    @SuppressWarnings("unchecked")
    private T self() {
        return (T) this;
    }

    /**
     * Decode/verify/write threads (default: available processors).
     *
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public T workers(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("restore workers must be at least 1, got " + n);
        }
        this.workers = n;
        return self();
    }

    /** The configured number of workers. */
    public int workers() {
        return workers;
    }

    /**
     * Skip writing zero chunks to a {@link java.nio.channels.FileChannel} target (default off):
     * the target must then already read as zeros there and have its final length.
     */
    public T sparse(boolean on) {
        this.sparse = on;
        return self();
    }

    /**
     * Check each decoded chunk's SHA-256 (with a key: SHA-256(data ‖ id_key)) against its digest
     * (default on; {@code docs/formats.md#chunks-and-digests}).
     */
    public T verify(boolean on) {
        this.verify = on;
        return self();
    }

    /**
     * Decrypts encrypted chunks with this key (default null: an encrypted chunk fails with
     * "encrypted, key needed"); digests are then checked as SHA-256(data ‖ id_key) and zero
     * chunks recognised by their keyed digest.
     */
    public T crypt(CryptConfig key) {
        this.crypt = key;
        return self();
    }

    /** Receives the plaintext bytes of every finished chunk (default: none). */
    public T progress(ProgressListener listener) {
        this.progress = listener == null ? ProgressListener.NONE : listener;
        return self();
    }

    /** A run over one index with these settings. */
    RestoreRun newRun(org.jpbs.core.index.IndexFile index, String resource) {
        return new RestoreRun(index, resource, workers, verify, crypt, progress);
    }
}
