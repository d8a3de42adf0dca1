package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.jpbs.s3.testing.TestS3Server;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jpbs s3 endpoint create|list|update|remove} on {@code s3.cfg} ({@code docs/s3.md#s3cfg}). */
class S3EndpointCliTest {
    @TempDir
    Path tmp;
    Path config;
    CliRunner cli;

    @BeforeEach
    void setUp() {
        config = tmp.resolve("config");
        cli = new CliRunner(tmp.resolve("home"), Map.of("JPBS_CONFIG_DIR", config.toString()));
    }

    CliRunner.Result ok(String... args) {
        CliRunner.Result r = cli.run(args);
        assertEquals(0, r.exit(), r.all());
        return r;
    }

    @Test
    void createListUpdateRemove() throws Exception {
        ok("s3", "endpoint", "create", "minio1", "--endpoint", "s3.{{region}}.example.net", "--region", "eu-central-1",
                "--access-key", "AK", "--secret-key", "SK", "--path-style", "true", "--provider-quirks",
                "skip-if-none-match-header", "--put-rate-limit", "50");
        Path cfg = config.resolve("s3.cfg");
        assertEquals("s3client: minio1\n\taccess-key AK\n\tendpoint s3.{{region}}.example.net\n\tpath-style true\n"
                + "\tprovider-quirks skip-if-none-match-header\n\tput-rate-limit 50\n\tregion eu-central-1\n\tsecret-key SK\n",
                Files.readString(cfg));

        String list = ok("s3", "endpoint", "list").out();
        assertTrue(list.contains("minio1") && list.contains("eu-central-1"), list);
        assertFalse(list.contains("SK"), "no secret in listings: " + list);
        String json = ok("s3", "endpoint", "list", "--output-format", "json").out();
        assertTrue(json.contains("\"id\":\"minio1\"") && json.contains("\"put-rate-limit\":\"50\""), json);
        assertFalse(json.contains("secret"), json);

        ok("s3", "endpoint", "update", "minio1", "--port", "9000", "--delete", "put-rate-limit,provider-quirks");
        String after = Files.readString(cfg);
        assertTrue(after.contains("\tport 9000\n") && !after.contains("put-rate-limit") && !after.contains("quirks"), after);
        assertTrue(after.contains("\tsecret-key SK\n"), "the secret stays: " + after);

        Files.writeString(config.resolve("datastore.cfg"),
                "datastore: offsite\n\tbackend bucket=pbs-offsite,client=minio1,type=s3\n\tpath /srv/cache\n");
        CliRunner.Result inUse = cli.run("s3", "endpoint", "remove", "minio1");
        assertEquals(1, inUse.exit());
        assertEquals("jpbs: error: s3 endpoint 'minio1' is in use by datastore 'offsite'\n", inUse.err());
        Files.delete(config.resolve("datastore.cfg"));
        ok("s3", "endpoint", "remove", "minio1");
        assertEquals("", Files.readString(cfg));
    }

    @Test
    void aDatastoreWithAnS3BackendIsCreatedAgainstARealBucket() throws Exception {
        try (TestS3Server server = TestS3Server.start(tmp, null, "pbs-offsite")) {
            ok("s3", "endpoint", "create", "local-s3", "--endpoint", "127.0.0.1", "--port", Integer.toString(server.port()),
                    "--region", "us-east-1", "--access-key", TestS3Server.ACCESS_KEY, "--secret-key",
                    TestS3Server.SECRET_KEY, "--path-style", "true", "--fingerprint", server.fingerprint());
            Path cache = tmp.resolve("cache");
            ok("datastore", "create", "offsite", cache.toString(), "--backend",
                    "type=s3,client=local-s3,bucket=pbs-offsite");
            assertTrue(Files.readString(config.resolve("datastore.cfg")).contains(
                    "\tbackend bucket=pbs-offsite,client=local-s3,type=s3\n"), Files.readString(config.resolve("datastore.cfg")));
            assertTrue(Files.isDirectory(cache.resolve(".chunks")));
            assertTrue(server.blobStore().list("pbs-offsite").contents().stream()
                    .anyMatch(o -> o.key().equals("offsite/.in-use")), "the in-use marker is in the bucket");

            // the local cache is the datastore's path: no datastore inside it, nor a cache inside another datastore
            CliRunner.Result nested = cli.run("datastore", "create", "inner", cache.resolve("in").toString());
            assertEquals(2, nested.exit(), nested.all());
            assertTrue(nested.err().contains("nested datastores not allowed: 'offsite' already in \"" + cache + "\""),
                    nested.err());
            CliRunner.Result nestedCache = cli.run("datastore", "create", "other", cache.resolve("c3").toString(),
                    "--backend", "type=s3,client=local-s3,bucket=pbs-offsite");
            assertEquals(2, nestedCache.exit(), nestedCache.all());
            assertFalse(Files.exists(cache.resolve("in")) || Files.exists(cache.resolve("c3")), "nothing created");
            CliRunner.Result noEndpoint = cli.run("datastore", "create", "other", tmp.resolve("c2").toString(),
                    "--backend", "type=s3,client=nope1,bucket=pbs-offsite");
            assertEquals(1, noEndpoint.exit());
            assertTrue(noEndpoint.err().startsWith("jpbs: error: --backend: s3 endpoint 'nope1' does not exist"),
                    noEndpoint.err());
            CliRunner.Result badBucket = cli.run("datastore", "create", "other", tmp.resolve("c2").toString(),
                    "--backend", "type=s3,client=local-s3,bucket=Bad_Bucket");
            assertEquals(2, badBucket.exit());
            assertTrue(badBucket.err().startsWith("jpbs: error: --backend: bucket 'Bad_Bucket'"), badBucket.err());
            CliRunner.Result noBucket = cli.run("datastore", "create", "other", tmp.resolve("c2").toString(),
                    "--backend", "type=s3,client=local-s3,bucket=missing-bucket");
            assertEquals(1, noBucket.exit());
            assertTrue(noBucket.err().contains("NoSuchBucket"), noBucket.err());
            assertFalse(Files.exists(tmp.resolve("c2")), "the cache made for it is removed again");
            assertFalse(Files.readString(config.resolve("datastore.cfg")).contains("other"), "not registered");
        }
    }

    @Test
    void badInputIsAUsageErrorNamingTheOption() {
        CliRunner.Result r = cli.run("s3", "endpoint", "create", "minio1", "--endpoint", "https://x.example",
                "--access-key", "a", "--secret-key", "s");
        assertEquals(2, r.exit(), r.all());
        assertTrue(r.err().startsWith("jpbs: error: s3 endpoint minio1: endpoint: 'https://x.example' is not a host name"),
                r.err());
        CliRunner.Result noSecret = cli.run("s3", "endpoint", "create", "minio1", "--endpoint", "x.example",
                "--access-key", "a");
        assertEquals(2, noSecret.exit());
        assertTrue(noSecret.err().startsWith("jpbs: error: s3 endpoint minio1: secret-key: missing"), noSecret.err());
        CliRunner.Result missing = cli.run("s3", "endpoint", "update", "nope", "--port", "1");
        assertEquals(1, missing.exit());
        assertEquals("jpbs: error: s3 endpoint 'nope' does not exist\n", missing.err());
        assertEquals(2, cli.run("s3", "endpoint").exit());
        assertFalse(Files.exists(config.resolve("s3.cfg")), "nothing written");
    }
}
