package org.jpbs.server.jobs;

import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Logs a problem that every scheduler tick meets again (a malformed {@code prune.cfg}, a job
 * whose datastore is gone) once per change instead of every few seconds
 * ({@code docs/jobs.md#the-scheduler}): {@link #problem} logs an error when the problem's
 * fingerprint differs from the one last logged under the same key (the file was changed but is
 * still broken, or the message changed), {@link #resolved} logs once that it is gone. Thread-safe.
 */
public final class ProblemLog {
    private final System.Logger log;
    private final Map<String, String> last = new ConcurrentHashMap<>();

    /** Logs to {@code log}. */
    public ProblemLog(System.Logger log) {
        this.log = Objects.requireNonNull(log, "log");
    }

    /**
     * Reports a problem of {@code key}.
     *
     * @param fingerprint what identifies this state of the problem (e.g. the message and the
     *                    file's modification time); logged again only when it changes
     * @return true if it was logged now
     */
    public boolean problem(String key, String fingerprint, String message) {
        if (fingerprint.equals(last.put(key, fingerprint))) {
            return false;
        }
        log.log(Level.ERROR, message);
        return true;
    }

    /** Reports that {@code key} has no problem (any more): logs {@code message} at INFO if it had one. */
    public void resolved(String key, String message) {
        if (last.remove(key) != null) {
            log.log(Level.INFO, message);
        }
    }
}
