package org.jpbs.client.progress;

/**
 * Receives finished work from an engine. Called from several worker threads at once, in any
 * order, once per finished chunk; implementations must be thread-safe and cheap.
 */
@FunctionalInterface
public interface ProgressListener {
    /** A listener that ignores everything. */
    ProgressListener NONE = bytes -> { };

    /**
     * One unit of work finished.
     *
     * @param bytes plaintext bytes the finished chunk covers (0 or more)
     */
    void advance(long bytes);
}
