package org.jpbs.s3.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** s3.cfg endpoints and the datastore backend property: PBS's names, validation, file handling. */
class S3ConfigTest {
    @TempDir
    Path dir;

    private static Map<String, String> props(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void aPbsStyleEndpointParsesAndWritesBackSorted() {
        S3EndpointConfig c = S3EndpointConfig.parse("b2-eu", props("endpoint", "s3.{{region}}.backblazeb2.com",
                "region", "eu-central-003", "access-key", "KEY", "secret-key", "SECRET", "path-style", "true",
                "provider-quirks", "skip-if-none-match-header", "rate-in", "10MiB", "burst-in", "20MiB",
                "put-rate-limit", "100", "port", "8443"));
        assertTrue(c.pathStyle());
        assertEquals(8443, c.effectivePort());
        assertEquals(10L << 20, c.rateIn());
        assertTrue(c.hasQuirk(S3EndpointConfig.QUIRK_SKIP_IF_NONE_MATCH));
        assertEquals(List.of("access-key", "burst-in", "endpoint", "path-style", "port", "provider-quirks",
                "put-rate-limit", "rate-in", "region", "secret-key"), List.copyOf(c.toProperties().keySet()));
        assertFalse(c.toPublicProperties().containsKey("secret-key"));
        assertEquals(c, S3EndpointConfig.parse("b2-eu", c.toProperties()));
    }

    @Test
    void badValuesAreRefusedNamingTheEndpointAndKey() {
        Map<String, String> ok = props("endpoint", "minio.local", "access-key", "a", "secret-key", "s");
        S3EndpointConfig.parse("abc", ok);
        String[][] bad = {
                {"endpoint", "https://minio.local", "endpoint"},
                {"endpoint", "minio.local:9000", "endpoint"},
                {"port", "70000", "port"},
                {"region", "Europe", "region"},
                {"fingerprint", "aa:bb", "fingerprint"},
                {"path-style", "maybe", "path-style"},
                {"provider-quirks", "no-such-quirk", "provider-quirks"},
                {"rate-out", "fast", "rate-out"},
                {"colour", "blue", "colour"},
        };
        for (String[] b : bad) {
            Map<String, String> p = new LinkedHashMap<>(ok);
            p.put(b[0], b[1]);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> S3EndpointConfig.parse("abc", p));
            assertTrue(e.getMessage().startsWith("s3 endpoint abc: " + b[2]), e.getMessage());
        }
        Map<String, String> noSecret = props("endpoint", "minio.local", "access-key", "a");
        assertEquals("s3 endpoint abc: secret-key: missing",
                assertThrows(IllegalArgumentException.class, () -> S3EndpointConfig.parse("abc", noSecret)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> S3EndpointConfig.parse("ab", ok));
        S3EndpointConfig.parse("ipv6", props("endpoint", "fd00::1", "access-key", "a", "secret-key", "s"));
    }

    @Test
    void aMisspeltSectionTypeOrBadValueInS3CfgNamesTheFile() throws IOException {
        S3ConfigStore store = S3ConfigStore.open(dir);
        Files.writeString(store.file(), "s3-endpoint: minio1\n\tendpoint 127.0.0.1\n");
        String e = assertThrows(IllegalArgumentException.class, store::list).getMessage();
        assertEquals(store.file() + ": unknown section type 's3-endpoint' (section 'minio1'; expected 's3client')", e);
        Files.writeString(store.file(), "s3client: minio1\n\tendpoint 127.0.0.1\n\taccess-key a\n\tsecret-key s\n"
                + "\tport notanumber\n");
        e = assertThrows(IllegalArgumentException.class, store::list).getMessage();
        assertTrue(e.startsWith(store.file() + ": ") && e.contains("port"), e);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> store.get("minio1")).getMessage()
                .startsWith(store.file() + ": "));
    }

    @Test
    void theStoreWritesS3CfgPrivatelyAndRefusesDuplicatesAndUnknownIds() throws IOException {
        S3ConfigStore store = S3ConfigStore.open(dir);
        assertTrue(store.list().isEmpty());
        S3EndpointConfig c = S3EndpointConfig.parse("minio1", props("endpoint", "127.0.0.1", "port", "9000",
                "access-key", "a", "secret-key", "s", "path-style", "true"));
        store.create(c);
        assertEquals("s3client: minio1\n\taccess-key a\n\tendpoint 127.0.0.1\n\tpath-style true\n\tport 9000\n\tsecret-key s\n",
                Files.readString(store.file()));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(store.file())));
        assertEquals("s3 endpoint 'minio1' already exists",
                assertThrows(IllegalArgumentException.class, () -> store.create(c)).getMessage());
        S3EndpointConfig changed = S3EndpointConfig.parse("minio1", props("endpoint", "127.0.0.1", "port", "9001",
                "access-key", "a", "secret-key", "s2"));
        store.replace(changed);
        assertEquals(changed, store.get("minio1").orElseThrow());
        assertEquals("s3 endpoint 'nope' does not exist",
                assertThrows(IllegalArgumentException.class, () -> store.remove("nope")).getMessage());
        store.remove("minio1");
        assertTrue(store.list().isEmpty());
    }

    @Test
    void theBackendPropertyHasPbsNames() {
        assertFalse(S3BackendConfig.parse(null).isS3());
        assertFalse(S3BackendConfig.parse("type=filesystem").isS3());
        S3BackendConfig b = S3BackendConfig.parse("type=s3,client=minio1,bucket=pbs-offsite,max-cache-size=2GiB");
        assertTrue(b.isS3());
        assertEquals("minio1", b.client());
        assertEquals(2L << 30, b.maxCacheSize());
        assertEquals(b, S3BackendConfig.parse(b.format()));
        assertEquals("backend: missing bucket for s3 backend",
                assertThrows(IllegalArgumentException.class, () -> S3BackendConfig.parse("type=s3,client=minio1")).getMessage());
        assertEquals("backend: missing client for s3 backend",
                assertThrows(IllegalArgumentException.class, () -> S3BackendConfig.parse("type=s3,bucket=abc")).getMessage());
        for (String bucket : new String[] {"Upper", "ab", "xn--abc", "abc--ol-s3", "-abc", "a_b"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> S3BackendConfig.parse("type=s3,client=minio1,bucket=" + bucket));
            assertTrue(e.getMessage().startsWith("backend: bucket '" + bucket + "'"), e.getMessage());
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> S3BackendConfig.parse("type=nfs"))
                .getMessage().contains("type"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> S3BackendConfig.parse("type=s3,region=x"))
                .getMessage().contains("unknown key 'region'"));
    }
}
