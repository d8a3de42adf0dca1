package org.jpbs.server;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.auth.Authenticator;

/**
 * What sessions share inside one running server: the open datastores by name, the
 * authenticator, the executors (virtual threads for control calls, a pool sized to the CPU
 * count for chunk decode/verify/write) and the set of live sessions.
 */
public final class ServerContext {
    private final Map<String, Datastore> datastores;
    private final Authenticator auth;
    private final ExecutorService virtualThreads;
    private final ExecutorService chunkWorkers;
    private final Set<Object> sessions = ConcurrentHashMap.newKeySet();

    /**
     * @param datastores     open datastores by store name
     * @param auth           authentication and privileges
     * @param virtualThreads executor for control calls and REST requests
     * @param chunkWorkers   bounded executor for chunk uploads (CPU and disk work)
     */
    public ServerContext(Map<String, Datastore> datastores, Authenticator auth, ExecutorService virtualThreads,
                         ExecutorService chunkWorkers) {
        this.datastores = Map.copyOf(datastores);
        this.auth = auth;
        this.virtualThreads = virtualThreads;
        this.chunkWorkers = chunkWorkers;
    }

    /** The datastore called {@code store}, if configured. */
    public Optional<Datastore> datastore(String store) {
        return Optional.ofNullable(datastores.get(store));
    }

    /** The authenticator. */
    public Authenticator auth() {
        return auth;
    }

    /** Executor for control calls (one virtual thread per task). */
    public ExecutorService virtualThreads() {
        return virtualThreads;
    }

    /** Bounded executor for chunk uploads. */
    public ExecutorService chunkWorkers() {
        return chunkWorkers;
    }

    /** Registers a live session. */
    public void sessionStarted(Object session) {
        sessions.add(session);
    }

    /** Unregisters a session once its cleanup is complete. */
    public void sessionEnded(Object session) {
        sessions.remove(session);
    }

    /** Number of live backup and reader sessions. */
    public int activeSessions() {
        return sessions.size();
    }
}
