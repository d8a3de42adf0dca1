package org.jpbs.cli.admin;

import java.nio.file.Path;
import org.jpbs.jobs.sync.SyncRunner;
import org.jpbs.server.jobs.SyncTasks;

/** The sync engine handed to the server's scheduler ({@code docs/sync.md#running}); the server itself does not see the client. */
public final class SyncEngineTasks {
    private SyncEngineTasks() {}

    /** Sync jobs of {@code configDir}'s {@code sync.cfg}, their remotes from its {@code remote.cfg}. */
    public static SyncTasks of(Path configDir) {
        return (job, store, readable, target) -> SyncRunner.task(configDir, job, store.datastore(), readable,
                target::require);
    }
}
