package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.s3.client.ObjectStore;
import org.jpbs.s3.client.S3Connector;
import org.jpbs.s3.client.S3Options;
import org.jpbs.s3.store.S3Datastore;
import org.jpbs.s3.testing.TestS3Server;
import org.jpbs.server.auth.AuthConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * S3 datastores between servers, all set up with the command line against s3proxy on loopback
 * ({@code docs/s3.md}): two jpbs servers sharing nothing but the bucket (the second, with its own
 * config and an empty cache, is refused while the first one's {@code .in-use} marker is there,
 * takes the datastore over with {@code --overwrite-in-use} and restores what the first one
 * backed up); {@code jpbs pull} into an S3 datastore and {@code jpbs push} from it (with its
 * cache deleted in between); the maintenance modes {@code read-only} and {@code offline}
 * refusing backups (and restores) of an S3 datastore through {@code jpbs serve}.
 */
class S3ServersCliTest {
    static final String STORE = S3ServeCliTest.STORE;
    static final int MIB = 1 << 20;

    @TempDir(factory = FastTempDirs.class)
    Path tmp;

    /** The s3.cfg endpoint of {@code s3} and the datastore {@value #STORE}, made by the command line in {@code config}. */
    static CliRunner.Result register(CliRunner admin, TestS3Server s3, Path cache, String... extra) {
        CliRunner.Result ep = admin.run("s3", "endpoint", "create", "ep1", "--endpoint", "127.0.0.1", "--port",
                Integer.toString(s3.port()), "--region", "us-east-1", "--access-key", TestS3Server.ACCESS_KEY,
                "--secret-key", TestS3Server.SECRET_KEY, "--path-style", "true", "--fingerprint", s3.fingerprint());
        if (ep.exit() != 0 && !ep.err().contains("already exists")) {
            return ep;
        }
        String[] args = new String[5 + extra.length];
        args[0] = "datastore";
        args[1] = "create";
        args[2] = STORE;
        args[3] = cache.toString();
        args[4] = "--backend=type=s3,client=ep1,bucket=backups";
        System.arraycopy(extra, 0, args, 5, extra.length);
        return admin.run(args);
    }

    static String token(Path config) throws IOException {
        AuthConfig auth = AuthConfig.open(config);
        String secret = auth.createToken("root@pam", "net", null);
        auth.updateAcl("/datastore", S3ServeCliTest.TOKEN_ID, "DatastoreAdmin", true, false);
        return secret;
    }

    static CliRunner admin(Path tmp, Path config) {
        return new CliRunner(tmp.resolve("home"), Map.of("JPBS_CONFIG_DIR", config.toString(), "TZ", "UTC"));
    }

    private CliRunner.Result backup(CliRunner cli, long time, Path img) {
        return cli.run("backup", "-q", "--backup-type", "vm", "--backup-id", "100", "--backup-time", Long.toString(time),
                "disk.img:" + img);
    }

    private void assertRestores(CliRunner cli, long time, byte[] want) throws IOException {
        Path out = tmp.resolve("restored.img");
        Files.deleteIfExists(out);
        CliRunner.Result r = cli.run("restore", "-q", "vm/100/" + BackupSnapshotRef.formatTime(time), "disk.img",
                out.toString());
        assertEquals(0, r.exit(), r.all());
        assertArrayEquals(want, Files.readAllBytes(out), "vm/100/" + BackupSnapshotRef.formatTime(time));
    }

    private static String inUse(TestS3Server s3) throws IOException {
        try (ObjectStore o = S3Connector.open(s3.endpoint("check"), "backups", STORE, S3Options.defaults())) {
            return new String(o.get(".in-use").orElseThrow().data(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void twoServersSharingOnlyTheBucketOneWritesTheOtherRestoresAfterACacheRebuild() throws Exception {
        Files.createDirectories(tmp.resolve("s3"));
        try (TestS3Server s3 = TestS3Server.start(tmp.resolve("s3"), null, "backups")) {
            Path configA = tmp.resolve("a-config");
            CliRunner adminA = admin(tmp, configA);
            CliRunner.Result created = register(adminA, s3, tmp.resolve("a-cache"));
            assertEquals(0, created.exit(), created.all());
            assertEquals("{\"hostname\":\"" + S3Datastore.hostname() + "\"}", inUse(s3));

            byte[] first = S3ServeCliTest.image(11, 9);
            byte[] second = first.clone();
            System.arraycopy(S3ServeCliTest.image(12, 1), 0, second, 0, MIB);
            Path img = tmp.resolve("disk.img");
            long t1 = 1_700_000_000L;
            long t2 = 1_700_003_600L;
            try (S3ServeCliTest.Running a = S3ServeCliTest.start(configA, token(configA))) {
                CliRunner cli = new CliRunner(tmp.resolve("home"), a.env());
                Files.write(img, first);
                assertEquals(0, backup(cli, t1, img).exit());
                Files.write(img, second);
                CliRunner.Result inc = backup(cli, t2, img);
                assertEquals(0, inc.exit(), inc.all());
            }

            // server B: its own config directory, an empty cache, nothing shared but the bucket
            Path configB = tmp.resolve("b-config");
            Path cacheB = tmp.resolve("b-cache");
            CliRunner adminB = admin(tmp, configB);
            CliRunner.Result refused = register(adminB, s3, cacheB);
            assertEquals(1, refused.exit(), refused.all());
            assertEquals("jpbs: error: Bucket already contains datastore in use by host " + S3Datastore.hostname() + "\n",
                    refused.err());
            assertFalse(Files.exists(cacheB), "nothing left behind");
            assertFalse(Files.exists(configB.resolve("datastore.cfg"))
                    && Files.readString(configB.resolve("datastore.cfg")).contains(STORE), "not registered");

            CliRunner.Result takeOver = register(adminB, s3, cacheB, "--reuse-datastore", "--overwrite-in-use");
            assertEquals(0, takeOver.exit(), takeOver.all());
            try (S3ServeCliTest.Running b = S3ServeCliTest.start(configB, token(configB))) {
                CliRunner cli = new CliRunner(tmp.resolve("home"), b.env());
                CliRunner.Result list = cli.run("snapshot", "list", "--output-format", "json");
                assertEquals(0, list.exit(), list.all());
                assertTrue(list.out().contains("\"backup-time\":" + t1) && list.out().contains("\"backup-time\":" + t2),
                        list.out());
                assertRestores(cli, t1, first);
                assertRestores(cli, t2, second);
                CliRunner.Result verify = cli.run("verify");
                assertEquals(0, verify.exit(), verify.all());
            }
            assertTrue(Files.isDirectory(cacheB.resolve("vm/100/" + BackupSnapshotRef.formatTime(t2))),
                    "B's cache was rebuilt from the bucket");
        }
    }

    @Test
    void pullIntoAnS3DatastoreAndPushFromIt() throws Exception {
        Files.createDirectories(tmp.resolve("s3"));
        try (TestS3Server s3 = TestS3Server.start(tmp.resolve("s3"), null, "backups");
             NetTestServer a = NetTestServer.startWithUsers(tmp.resolve("a"));
             NetTestServer b = NetTestServer.startWithUsers(tmp.resolve("b"))) {
            Path config = tmp.resolve("conf");
            Path cache = tmp.resolve("cache");
            CliRunner cli = admin(tmp, config);
            CliRunner.Result created = register(cli, s3, cache);
            assertEquals(0, created.exit(), created.all());
            int i = 0;
            for (NetTestServer r : new NetTestServer[] {a, b}) {
                ok(cli, "remote", "create", "srv" + i++, "--host", "127.0.0.1", "--port", String.valueOf(r.port()),
                        "--auth-id", NetTestServer.TOKEN_ID, "--password", r.tokenSecret, "--fingerprint", r.fingerprint());
            }
            BackupGroupRef vm = new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "100");
            BackupGroupRef ct = new BackupGroupRef(BackupNamespace.parse("prod"), BackupType.CT, "200");
            SyncServersTest.backup(a.datastore(), new BackupSnapshotRef(vm, SyncServersTest.T1), 1, 6, 0);
            SyncServersTest.backup(a.datastore(), new BackupSnapshotRef(ct, SyncServersTest.T1), 2, 2, 0);
            long all = SyncServersTest.chunkFiles(a.storePath);

            CliRunner.Result pull = ok(cli, "pull", "--remote", "srv0", "--remote-store", "store1", "--store", STORE);
            assertEquals(2, SyncServersTest.summary(pull)[0], pull.all());
            assertEquals(all, SyncServersTest.summary(pull)[1], pull.all());
            assertEquals(all, chunkObjects(s3), "every chunk of the source is an object in the bucket");
            assertTrue(s3.blobStore().list("backups").contents().stream()
                            .anyMatch(o -> o.key().equals(STORE + "/.cnt/ns/prod/.namespace")),
                    "the namespace made by the pull has its marker");
            CliRunner.Result again = ok(cli, "pull", "--remote", "srv0", "--remote-store", "store1", "--store", STORE);
            assertEquals(0, SyncServersTest.summary(again)[1], "a re-sync moves no chunk");

            // the push reads every chunk back from the bucket: the local cache is gone
            FastTempDirs.deleteTree(cache);
            CliRunner.Result push = ok(cli, "push", "--remote", "srv1", "--remote-store", "store1", "--store", STORE);
            assertEquals(2, SyncServersTest.summary(push)[0], push.all());
            assertEquals(all, SyncServersTest.summary(push)[1], push.all());
            assertEquals(all, SyncServersTest.chunkFiles(b.storePath));
            for (BackupGroupRef g : new BackupGroupRef[] {vm, ct}) {
                BackupSnapshotRef ref = new BackupSnapshotRef(g, SyncServersTest.T1);
                // the push target writes its own manifest (its upload statistics); the files are the same
                assertEquals(a.manifest(ref).files(), b.manifest(ref).files(), "files of " + ref);
            }
            ok(cli, "verify", "--repository", cache.toString()); // the S3 datastore, from its rebuilt cache

            // a pull into an S3 datastore in read-only maintenance mode is refused
            ok(cli, "datastore", "update", STORE, "--maintenance-mode", "read-only");
            CliRunner.Result refused = cli.run("pull", "--remote", "srv0", "--remote-store", "store1", "--store", STORE);
            assertTrue(refused.exit() != 0 && refused.all().contains("read-only maintenance mode"), refused.all());
        }
    }

    @Test
    void maintenanceModesRefuseBackupsAndRestoresOfAnS3Datastore() throws Exception {
        Files.createDirectories(tmp.resolve("s3"));
        try (TestS3Server s3 = TestS3Server.start(tmp.resolve("s3"), null, "backups")) {
            Path config = tmp.resolve("config");
            Path cache = tmp.resolve("cache");
            CliRunner admin = admin(tmp, config);
            assertEquals(0, register(admin, s3, cache).exit());
            byte[] data = S3ServeCliTest.image(21, 3);
            Path img = tmp.resolve("disk.img");
            Files.write(img, data);
            long t1 = 1_700_000_000L;
            try (S3ServeCliTest.Running srv = S3ServeCliTest.start(config, token(config))) {
                CliRunner cli = new CliRunner(tmp.resolve("home"), srv.env());
                assertEquals(0, backup(cli, t1, img).exit());
                long objects = s3.blobStore().list("backups").contents().size();

                ok(admin, "datastore", "update", STORE, "--maintenance-mode", "read-only,message=bucket migration");
                CliRunner.Result refused = backup(cli, t1 + 60, img);
                assertEquals(1, refused.exit(), refused.all());
                assertTrue(refused.err().contains("datastore '" + STORE
                        + "' is in read-only maintenance mode: bucket migration"), refused.err());
                assertRestores(cli, t1, data);
                CliRunner.Result gc = cli.run("gc");
                assertTrue(gc.exit() != 0 && gc.all().contains("read-only maintenance mode"), gc.all());
                assertEquals(objects, s3.blobStore().list("backups").contents().size(), "nothing reached the bucket");

                ok(admin, "datastore", "update", STORE, "--maintenance-mode", "offline");
                CliRunner.Result restore = cli.run("restore", "-q", "vm/100/" + BackupSnapshotRef.formatTime(t1),
                        "disk.img", tmp.resolve("r.img").toString());
                assertTrue(restore.exit() != 0 && restore.err().contains("offline maintenance mode"), restore.all());

                // the local commands honour it too
                CliRunner local = admin(tmp, config);
                CliRunner.Result localBackup = local.run("backup", "-q", "--repository", cache.toString(),
                        "--backup-type", "vm", "--backup-id", "100", "disk.img:" + img);
                assertEquals(1, localBackup.exit(), localBackup.all());
                assertTrue(localBackup.err().contains("offline maintenance mode"), localBackup.err());

                ok(admin, "datastore", "update", STORE, "--delete", "maintenance-mode");
                assertEquals(0, backup(cli, t1 + 120, img).exit());
                assertRestores(cli, t1 + 120, data);
            }
        }
    }

    private static CliRunner.Result ok(CliRunner cli, String... args) {
        CliRunner.Result r = cli.run(args);
        assertEquals(0, r.exit(), r.all());
        return r;
    }

    private static long chunkObjects(TestS3Server s3) {
        return s3.blobStore().list("backups").contents().stream()
                .filter(o -> o.key().startsWith(STORE + "/.chunks/")).count();
    }
}
