package org.jpbs.server;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import org.jpbs.datastore.config.DatastoreHandle;
import org.jpbs.datastore.config.Operation;
import org.jpbs.datastore.task.TaskManager;
import org.jpbs.server.auth.Authenticator;

/**
 * What sessions share inside one running server: the datastores and tasks
 * ({@link ServerServices}), the authenticator, the executors (virtual threads for control
 * calls, a lane of the server's thread budget for chunk decode/verify/write) and the set of live
 * sessions.
 */
public final class ServerContext {
    private final ServerServices services;
    private final Authenticator auth;
    private final ExecutorService virtualThreads;
    private final ExecutorService chunkWorkers;
    private final Set<Object> sessions = ConcurrentHashMap.newKeySet();

    /**
     * @param services       datastores, tasks, job hook
     * @param auth           authentication and privileges
     * @param virtualThreads executor for control calls and REST requests
     * @param chunkWorkers   bounded executor for chunk uploads (CPU and disk work), a lane of
     *                       {@link ServerServices#budget()}
     */
    public ServerContext(ServerServices services, Authenticator auth, ExecutorService virtualThreads,
                         ExecutorService chunkWorkers) {
        this.services = services;
        this.auth = auth;
        this.virtualThreads = virtualThreads;
        this.chunkWorkers = chunkWorkers;
    }

    /**
     * Looks a datastore up for an operation (maintenance mode enforced); close the handle when
     * the operation ends.
     *
     * @throws IOException e.g. {@code "datastore 'x' is in offline maintenance mode: ..."}
     */
    public DatastoreHandle lookup(String store, Operation op) throws IOException {
        DatastoreHandle h = services.datastores().lookup(store, op);
        org.jpbs.server.http.HiddenPaths.addRoot(h.datastore().root(), org.jpbs.server.http.HiddenPaths.DATASTORE);
        return h;
    }

    /** The task manager. */
    public TaskManager tasks() {
        return services.tasks();
    }

    /** The shared services. */
    public ServerServices services() {
        return services;
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
