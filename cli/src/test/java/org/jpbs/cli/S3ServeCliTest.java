package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.datastore.config.DatastoreConfigStore;
import org.jpbs.s3.config.S3ConfigStore;
import org.jpbs.s3.testing.TestS3Server;
import org.jpbs.server.JpbsServer;
import org.jpbs.server.ServerConfig;
import org.jpbs.server.api.JpbsRestHandler;
import org.jpbs.server.auth.AuthConfig;
import org.jpbs.server.auth.FileAuthenticator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jpbs serve} with an S3 datastore from {@code datastore.cfg} (s3proxy on loopback,
 * {@code docs/s3.md#opening}): backup and incremental backup with the jpbs client through the
 * server, restore, GC and verify as server tasks, then a fresh server whose cache directory was
 * deleted restores both snapshots from the bucket.
 */
class S3ServeCliTest {
    static final String STORE = "offsite";
    static final String TOKEN_ID = "root@pam!net";
    static final int MIB = 1 << 20;

    @TempDir
    Path tmp;

    record Running(JpbsServer server, String secret) implements AutoCloseable {
        Map<String, String> env() {
            Map<String, String> env = new HashMap<>();
            env.put("PBS_REPOSITORY", TOKEN_ID + "@127.0.0.1:" + server.port() + ":" + STORE);
            env.put("PBS_PASSWORD", secret);
            env.put("PBS_FINGERPRINT", server.fingerprint());
            return env;
        }

        @Override
        public void close() {
            server.close();
        }
    }

    /** A server as 'jpbs serve' runs it: datastores from datastore.cfg, GC/prune/verify as tasks. */
    static Running start(Path config, String secret) throws IOException {
        FileAuthenticator auth = FileAuthenticator.open(config);
        ServerConfig sc = new ServerConfig(config, Map.of(), "127.0.0.1", 0);
        JpbsRestHandler h = JpbsRestHandler.create(sc, auth).withFailureDelays(Duration.ZERO, Duration.ZERO);
        h = h.withServices(h.services().withJobs(new org.jpbs.server.api.LocalDatastoreJobs("root@pam", h.services().budget())));
        return new Running(JpbsServer.start(sc, auth, h), secret);
    }

    static byte[] image(long seed, int mib) {
        byte[] b = new byte[mib * MIB];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void backupIncrementalRestoreGcVerifyThroughTheServerAndAFreshServerWithoutCache() throws Exception {
        Files.createDirectories(tmp.resolve("s3"));
        try (TestS3Server s3 = TestS3Server.start(tmp.resolve("s3"), null, "backups")) {
            Path config = tmp.resolve("config");
            Path cache = tmp.resolve("cache");
            Files.createDirectories(config);
            S3ConfigStore.open(config).create(s3.endpoint("ep1"));
            Files.writeString(config.resolve(DatastoreConfigStore.FILE), "datastore: " + STORE
                    + "\n\tbackend bucket=backups,client=ep1,type=s3\n\tpath " + cache + "\n");
            AuthConfig auth = AuthConfig.open(config);
            String secret = auth.createToken("root@pam", "net", null);
            auth.updateAcl("/datastore", TOKEN_ID, "DatastoreAdmin", true, false);

            byte[] first = image(1, 12);
            byte[] second = first.clone();
            System.arraycopy(image(2, 1), 0, second, 4 * MIB, MIB); // one 4 MiB chunk changes
            Path img = tmp.resolve("disk.img");
            long t1 = 1_700_000_000L;
            long t2 = 1_700_000_600L;
            try (Running srv = start(config, secret)) {
                CliRunner cli = new CliRunner(tmp.resolve("home"), srv.env());
                Files.write(img, first);
                CliRunner.Result b = cli.run("backup", "-q", "--backup-type", "vm", "--backup-id", "100",
                        "--backup-time", Long.toString(t1), "disk.img:" + img);
                assertEquals(0, b.exit(), b.all());
                Files.write(img, second);
                CliRunner.Result inc = cli.run("backup", "--backup-type", "vm", "--backup-id", "100",
                        "--backup-time", Long.toString(t2), "disk.img:" + img);
                assertEquals(0, inc.exit(), inc.all());
                assertRestores(cli, t1, first);
                assertRestores(cli, t2, second);

                CliRunner.Result gc = cli.run("gc");
                assertEquals(0, gc.exit(), gc.all());
                CliRunner.Result verify = cli.run("verify");
                assertEquals(0, verify.exit(), verify.all());
                assertRestores(cli, t2, second);
            }
            // every chunk and snapshot file is in the bucket: a fresh server without the cache restores
            FastTempDirs.deleteTree(cache);
            try (Running srv = start(config, secret)) {
                CliRunner cli = new CliRunner(tmp.resolve("home"), srv.env());
                assertRestores(cli, t1, first);
                assertRestores(cli, t2, second);
                CliRunner.Result verify = cli.run("verify");
                assertEquals(0, verify.exit(), verify.all());
            }
        }
    }

    private void assertRestores(CliRunner cli, long time, byte[] want) throws IOException {
        Path out = tmp.resolve("restored-" + time + ".img");
        Files.deleteIfExists(out);
        CliRunner.Result r = cli.run("restore", "-q", "vm/100/" + BackupSnapshotRef.formatTime(time), "disk.img",
                out.toString());
        assertEquals(0, r.exit(), r.all());
        assertArrayEquals(want, Files.readAllBytes(out), "vm/100/" + BackupSnapshotRef.formatTime(time));
    }
}
