package org.jpbs.cli;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import org.jpbs.client.http.HttpStatusException;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.client.remote.RemoteSnapshotSource;
import org.jpbs.client.remote.RemoteSnapshotTarget;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.snapshot.SnapshotSource;
import org.jpbs.core.snapshot.SnapshotTarget;
import org.jpbs.testkit.snapshot.SnapshotPlace;
import org.jpbs.testkit.snapshot.SnapshotSourceContract;
import org.jpbs.testkit.snapshot.SnapshotTargetContract;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

/**
 * The snapshot contract suites against the remote implementations: a backup session
 * ({@link RemoteSnapshotTarget}) and a reader session ({@link RemoteSnapshotSource}) on a real
 * jpbs server on 127.0.0.1, one per test.
 */
class RemoteSnapshotContractTest {
    static SnapshotPlace remote(Path dir) throws IOException {
        NetTestServer server = NetTestServer.startWithToken(dir);
        PbsClient pbs = new PbsClient(server.repository(), server.credentials());
        return new SnapshotPlace() {
            @Override
            public SnapshotTarget begin(BackupSnapshotRef ref) throws IOException {
                // a dropped session's group lock is released once the server has cleaned it up:
                // a client starting right after another's abort waits briefly for that
                for (int attempt = 0; ; attempt++) {
                    try {
                        return RemoteSnapshotTarget.start(pbs, ref, 4);
                    } catch (HttpStatusException e) {
                        if (attempt >= 100 || !e.serverMessage().contains("locked")) {
                            throw e;
                        }
                        try {
                            Thread.sleep(20);
                        } catch (InterruptedException ie) {
                            Thread.currentThread().interrupt();
                            throw new InterruptedIOException();
                        }
                    }
                }
            }

            @Override
            public SnapshotSource open(BackupSnapshotRef ref) throws IOException {
                return RemoteSnapshotSource.open(pbs, ref);
            }

            @Override
            public void close() throws IOException {
                pbs.close();
                server.close();
                FastTempDirs.deleteTree(dir); // faster than JUnit's cleanup of the 65536 chunk directories
            }
        };
    }

    @Nested
    class Target extends SnapshotTargetContract {
        @TempDir(factory = FastTempDirs.class)
        Path dir;

        @Override
        protected SnapshotPlace newPlace() throws IOException {
            return remote(dir);
        }
    }

    @Nested
    class Source extends SnapshotSourceContract {
        @TempDir(factory = FastTempDirs.class)
        Path dir;

        @Override
        protected SnapshotPlace newPlace() throws IOException {
            return remote(dir);
        }
    }
}
