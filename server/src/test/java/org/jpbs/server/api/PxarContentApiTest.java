package org.jpbs.server.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.chunker.ChunkingOutputStream;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.DynamicIndexBuilder;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.core.snapshot.SnapshotTarget;
import org.jpbs.core.testing.SampleTree;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.LocalSnapshotTarget;
import org.jpbs.server.JpbsServer;
import org.jpbs.server.ServerConfig;
import org.jpbs.server.api.ApiTestSupport.Client;
import org.jpbs.server.api.ApiTestSupport.Resp;
import org.jpbs.server.auth.AuthConfig;
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET catalog} and {@code GET pxar-file-download} over HTTPS ({@code docs/api.md#file-archives-get-catalog-get-pxar-file-download}):
 * the answer's shape as PBS's ({@code filepath} base64, {@code text}, {@code type},
 * {@code leaf}, {@code size}/{@code mtime} for files), listings from the catalog and from the
 * archive, a file raw, a directory as zip and tar.zst, PBS's errors; privileges per datastore
 * role and for a group owned by someone else; encrypted catalogs and archives refused.
 */
class PxarContentApiTest {
    static final String DS = "/api2/json/admin/datastore/store1/";
    static final long T = 1_700_000_000L;

    @TempDir
    static Path tmp;
    static JpbsServer server;
    static Client http;
    static Map<String, Map<String, String>> role;
    static SampleTree tree;

    static void snapshot(Datastore ds, String id, String owner, CryptMode mode) throws IOException {
        BackupSnapshotRef ref = new BackupSnapshotRef(new BackupGroupRef(BackupNamespace.ROOT, BackupType.HOST, id), T);
        try (LocalSnapshotTarget t = LocalSnapshotTarget.begin(ds, ref, owner, false)) {
            BackupManifest m = new BackupManifest(BackupType.HOST, id, T);
            m.addFile(store(t, "root.pxar.didx", tree.archive, mode));
            m.addFile(store(t, "catalog.pcat1.didx", tree.catalog, mode));
            t.finish(m);
        }
    }

    private static FileEntry store(SnapshotTarget t, String name, byte[] data, CryptMode mode) throws IOException {
        SnapshotTarget.IndexWriter w = t.openDynamicIndex(name, new HashSet<>());
        DynamicIndexBuilder b = new DynamicIndexBuilder();
        try (ChunkingOutputStream out = ChunkingOutputStream.buzhash(64 * 1024, (buf, len, end) -> {
            Digest d = EncodedChunk.digest(buf, 0, len, null);
            if (w.isKnown(d)) {
                w.reuse(d);
            } else {
                w.insert(EncodedChunk.encode(buf, 0, len, true));
            }
            b.append(end, d);
        })) {
            out.write(data);
        }
        return w.close(b.build(UUID.nameUUIDFromBytes(data), T), mode);
    }

    @BeforeAll
    static void start() throws Exception {
        tree = new SampleTree(11, 400);
        Path root = tmp.resolve("ds");
        Datastore ds = DatastorePool.datastore(root, SyncLevel.NONE);
        snapshot(ds, "own", "alice@pbs!backup", CryptMode.NONE);
        snapshot(ds, "powerown", "alice@pbs!power", CryptMode.NONE);
        snapshot(ds, "foreign", "bob@pbs", CryptMode.NONE);
        snapshot(ds, "enc", "alice@pbs!backup", CryptMode.ENCRYPT);
        Path config = tmp.resolve("etc");
        AuthConfig cfg = AuthConfig.open(config);
        cfg.addUser("bob@pbs", null, null);
        role = ApiTestSupport.roleCallers(cfg, "/system");
        ServerConfig sc = new ServerConfig(config, Map.of("store1", root), "127.0.0.1", 0);
        FileAuthenticator auth = FileAuthenticator.open(config);
        server = JpbsServer.start(sc, auth, JpbsRestHandler.create(sc, auth).withFailureDelays(Duration.ZERO, Duration.ZERO));
        http = new Client(server.port());
    }

    @AfterAll
    static void stop() throws Exception {
        ApiTestSupport.close(http, server);
    }

    static String b64(String path) {
        return Base64.getEncoder().encodeToString(path.getBytes(StandardCharsets.UTF_8));
    }

    static Resp get(String who, String call, String id, String query) throws Exception {
        return http.get(DS + call + "?backup-type=host&backup-id=" + id + "&backup-time=" + T + query, role.get(who));
    }

    static Resp catalog(String who, String id, String filepath) throws Exception {
        return get(who, "catalog", id, "&filepath=" + URLEncoder.encode(filepath, StandardCharsets.UTF_8));
    }

    static Resp download(String who, String id, String path, String extra) throws Exception {
        return get(who, "pxar-file-download", id, "&filepath=" + URLEncoder.encode(b64(path), StandardCharsets.UTF_8) + extra);
    }

    @Test
    void catalogAnswersAsPbs() throws Exception {
        Resp root = catalog("admin", "own", "root");
        assertEquals(200, root.status(), root.text());
        assertEquals("{\"data\":[{\"filepath\":\"" + b64("/root.pxar.didx") + "\",\"text\":\"root.pxar.didx\",\"type\":\"d\","
                + "\"leaf\":false}]}", root.text());
        assertEquals(root.text(), catalog("admin", "own", "/").text());
        JsonNode top = catalog("admin", "own", b64("/root.pxar.didx")).json().get("data");
        assertEquals(5, top.size(), top.toString());
        assertEquals("{\"filepath\":\"" + b64("root.pxar.didx/a.txt") + "\",\"text\":\"a.txt\",\"type\":\"f\",\"leaf\":true,"
                + "\"size\":5,\"mtime\":" + T + "}", top.get(0).toString());
        assertEquals("{\"filepath\":\"" + b64("root.pxar.didx/fifo") + "\",\"text\":\"fifo\",\"type\":\"p\",\"leaf\":true}",
                top.get(3).toString());
        // the web UI passes an entry's filepath back to list it
        JsonNode dir = catalog("admin", "own", top.get(2).get("filepath").asText()).json().get("data");
        assertEquals(List.of("hard h", "link l", "sub d"), names(dir));
        JsonNode many = catalog("admin", "own", b64("/root.pxar.didx/many")).json().get("data");
        assertEquals(400, many.size());
        assertEquals(tree.many(399).length, many.get(399).get("size").asLong());
    }

    @Test
    void catalogOfAnArchiveByName() throws Exception {
        Resp r = get("admin", "catalog", "own", "&archive-name=root.pxar.didx&filepath=" + URLEncoder.encode(b64("/dir"),
                StandardCharsets.UTF_8));
        assertEquals(200, r.status(), r.text());
        JsonNode d = r.json().get("data");
        assertEquals(List.of("hard h", "link l", "sub d"), names(d));
        assertEquals(b64("/dir/sub"), d.get(2).get("filepath").asText());
    }

    @Test
    void catalogErrorsAsPbs() throws Exception {
        assertError(catalog("admin", "own", b64("/root.pxar.didx/nope")), 400,
                "path \"/root.pxar.didx/nope\" not found in catalog");
        assertError(catalog("admin", "own", b64("/root.pxar.didx/a.txt")), 400, "parent is not a directory - internal error");
        assertError(catalog("admin", "own", "!!"), 400, "base64 decoding of path failed");
        assertError(get("admin", "catalog", "own", ""), 400, "'filepath': parameter is missing and it is not optional.");
    }

    @Test
    void downloadsAFileRawADirectoryAsZipOrTar() throws Exception {
        Resp big = download("admin", "own", "/root.pxar.didx/big.bin", "");
        assertEquals(200, big.status(), big.text());
        assertEquals("application/octet-stream", big.contentType());
        assertArrayEquals(tree.big, big.body());
        assertEquals("hello", download("admin", "own", "/root.pxar.didx/dir/hard", "").text());
        // the catalog's own form of a path (no leading slash) works too
        assertEquals("deep", download("admin", "own", "root.pxar.didx/dir/sub/deep.txt", "").text());
        assertEquals("deep", download("admin", "own", "/dir/sub/deep.txt", "&archive-name=root.pxar").text());
        Resp zip = download("admin", "own", "/root.pxar.didx/dir", "");
        assertEquals(200, zip.status(), zip.text());
        List<String> entries = new ArrayList<>();
        try (ZipInputStream z = new ZipInputStream(new ByteArrayInputStream(zip.body()))) {
            ZipEntry e;
            while ((e = z.getNextEntry()) != null) {
                entries.add(e.getName() + "=" + new String(z.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        assertEquals(List.of("dir/=", "dir/hard=hello", "dir/sub/=", "dir/sub/deep.txt=deep"), entries);
        Resp tar = download("admin", "own", "/root.pxar.didx/dir", "&tar=1");
        assertEquals(200, tar.status(), tar.text());
        assertEquals(0xFD2FB528L, readIntLe(tar.body())); // a zstd frame
        assertError(download("admin", "own", "/root.pxar.didx/dir/link", ""), 400, "cannot download file of type Symlink");
        assertError(download("admin", "own", "/root.pxar.didx/nope", ""), 400, "error opening '\"nope\"'");
        assertError(download("admin", "own", "/other.pxar.didx/x", ""), 400, "unable to read dynamic index");
    }

    @Test
    void privilegesPerRoleAndOwner() throws Exception {
        // role -> {own group (backup token's), power token's group, bob's group}
        Map<String, int[]> want = Map.of(
                "backup", new int[] {200, 400, 400},
                "power", new int[] {400, 200, 400},
                "dsadmin", new int[] {200, 200, 200},
                "reader", new int[] {200, 200, 200},
                "audit", new int[] {403, 403, 403});
        String[] groups = {"own", "powerown", "foreign"};
        for (Map.Entry<String, int[]> w : want.entrySet()) {
            for (int g = 0; g < groups.length; g++) {
                Resp c = catalog(w.getKey(), groups[g], "root");
                assertEquals(w.getValue()[g], c.status(), w.getKey() + " catalog of " + groups[g] + ": " + c.text());
                Resp d = download(w.getKey(), groups[g], "/root.pxar.didx/a.txt", "");
                assertEquals(w.getValue()[g], d.status(), w.getKey() + " download of " + groups[g] + ": " + d.text());
                if (c.status() == 400) {
                    assertTrue(c.text().contains("backup owner check failed"), c.text());
                }
                if (c.status() == 200) {
                    assertEquals("hello", d.text());
                }
            }
        }
        assertTrue(catalog("audit", "own", "root").text().contains("permission check failed"));
    }

    @Test
    void encryptedArchivesAreRefused() throws Exception {
        assertError(catalog("backup", "enc", "root"), 400, "cannot decode 'catalog.pcat1.didx' - is encrypted");
        assertError(download("backup", "enc", "/root.pxar.didx/a.txt", ""), 400,
                "cannot decode 'root.pxar.didx' - is encrypted");
    }

    private static void assertError(Resp r, int status, String part) {
        assertEquals(status, r.status(), r.text());
        assertTrue(r.text().contains(part), r.text());
        assertTrue(!r.text().contains(tmp.toString()), "server path in " + r.text());
    }

    private static List<String> names(JsonNode entries) {
        List<String> out = new ArrayList<>();
        entries.forEach(e -> out.add(e.get("text").asText() + " " + e.get("type").asText()));
        return out;
    }

    private static long readIntLe(byte[] b) {
        return (b[0] & 0xffL) | (b[1] & 0xffL) << 8 | (b[2] & 0xffL) << 16 | (b[3] & 0xffL) << 24;
    }
}
