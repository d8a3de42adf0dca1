package org.jpbs.datastore.config;

import org.jpbs.datastore.snapshot.Datastore;

/**
 * One operation's reference to a datastore from {@link DatastoreCache#lookup}: the datastore,
 * the config it was looked up with, and the operation it counts as (read or write) until
 * {@link #close()}. Closing is cheap (no config read) and idempotent. Thread-safe.
 */
public final class DatastoreHandle implements AutoCloseable {
    private final DatastoreCache cache;
    private final DatastoreConfig config;
    private final Datastore datastore;
    private final Operation operation;
    private final DatastoreCache.ActiveOps ops;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    DatastoreHandle(DatastoreCache cache, DatastoreConfig config, Datastore datastore, Operation operation,
                    DatastoreCache.ActiveOps ops) {
        this.cache = cache;
        this.config = config;
        this.datastore = datastore;
        this.operation = operation;
        this.ops = ops;
    }

    /** The datastore name. */
    public String name() {
        return config.name();
    }

    /** The config the lookup saw. */
    public DatastoreConfig config() {
        return config;
    }

    /** The opened datastore. */
    public Datastore datastore() {
        return datastore;
    }

    /** The operation this handle counts as. */
    public Operation operation() {
        return operation;
    }

    /** Ends the operation: decrements the active-operation count; evicts an offline datastore after its last operation. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            cache.release(config.name(), operation, ops);
        }
    }
}
