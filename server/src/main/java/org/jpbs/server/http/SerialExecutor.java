package org.jpbs.server.http;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * Runs tasks one at a time, in submission order, on a backing executor. A session submits its
 * state-changing calls (index create/append/close, blob, finish, downloads that register
 * chunks) here in the order their requests completed on the wire, so appends of one index
 * keep their stream order while chunk uploads run in parallel elsewhere.
 */
public final class SerialExecutor implements Executor {
    private final Executor backing;
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    private boolean running;

    /** @param backing where the tasks actually run (e.g. a virtual-thread executor) */
    public SerialExecutor(Executor backing) {
        this.backing = backing;
    }

    @Override
    public void execute(Runnable task) {
        synchronized (queue) {
            queue.add(task);
            if (running) {
                return;
            }
            running = true;
        }
        backing.execute(this::drain);
    }

    private void drain() {
        while (true) {
            Runnable next;
            synchronized (queue) {
                next = queue.poll();
                if (next == null) {
                    running = false;
                    return;
                }
            }
            try {
                next.run();
            } catch (RuntimeException e) {
                System.getLogger(SerialExecutor.class.getName()).log(System.Logger.Level.ERROR, "task failed", e);
            }
        }
    }
}
