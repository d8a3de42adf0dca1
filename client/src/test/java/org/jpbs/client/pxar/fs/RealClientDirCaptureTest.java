package org.jpbs.client.pxar.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.jpbs.core.pxar.PxarDecoder;
import org.jpbs.core.pxar.PxarEntry;
import org.jpbs.core.pxar.catalog.ArchiveCatalog;
import org.jpbs.core.pxar.catalog.CatalogEntry;
import org.jpbs.core.pxar.catalog.CatalogReader;
import org.jpbs.core.pxar.catalog.CatalogWriter;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.chunker.ChunkingOutputStream;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.crypto.KeyConfig;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real client's directory backups ({@code vectors/real-client/dir-*}: plain, incremental,
 * encrypted). Their uploaded chunks decode to a pxar stream equal to {@code pxar/tree.pxar}
 * and to a catalog whose listing matches that archive; archiving the same tree with jpbs
 * (catalog wrapped in {@code root.pxar.didx}, as the client does) gives the same two byte
 * streams, and the buzhash chunker cuts them as the client did (one chunk each, same digest).
 */
class RealClientDirCaptureTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Path tree;

    @BeforeAll
    static void extractTree() throws Exception {
        Path tar = SharedVectors.require("vectors/real-client/pxar/tree.tar");
        tree = VectorTrees.diskDirectory();
        VectorTrees.untar(tar, tree);
    }

    @AfterAll
    static void remove() throws Exception {
        VectorTrees.delete(tree);
    }

    @ParameterizedTest
    @ValueSource(strings = {"dir-plain", "dir-incremental", "dir-encrypted"})
    void jpbsMakesTheSameArchiveAndCatalogAsTheRealClient(String capture) throws Exception {
        Path dir = SharedVectors.require("vectors/real-client/" + capture);
        CryptConfig crypt = capture.endsWith("encrypted") ? key() : null;
        byte[] pxar = stream(dir, "root.pxar.didx", crypt);
        byte[] catalog = stream(dir, "catalog.pcat1.didx", crypt);
        assertArrayEquals(Files.readAllBytes(SharedVectors.require("vectors/real-client/pxar/tree.pxar")), pxar);

        assertEquals(archiveListing(pxar), catalogListing(catalog));

        ByteArrayOutputStream myPxar = new ByteArrayOutputStream();
        ByteArrayOutputStream myCatalog = new ByteArrayOutputStream();
        CatalogWriter cw = new CatalogWriter(myCatalog);
        cw.startDirectory("root.pxar.didx".getBytes(StandardCharsets.UTF_8));
        List<String> warnings = new ArrayList<>();
        new TreeArchiver(TreeArchiver.Options.defaults(), cw, warnings::add).archive(tree.resolve("tree"), myPxar);
        cw.endDirectory();
        cw.finish();
        assertEquals(List.of(), warnings);
        assertArrayEquals(pxar, myPxar.toByteArray());
        assertArrayEquals(catalog, myCatalog.toByteArray());
        // the listing a snapshot of split archives gets from its metadata archive (docs/pxar.md#catalog-of-split-archives)
        ByteArrayOutputStream fromArchive = new ByteArrayOutputStream();
        CatalogWriter aw = new CatalogWriter(fromArchive);
        ArchiveCatalog.add(aw, "root.pxar.didx".getBytes(StandardCharsets.UTF_8), new java.io.ByteArrayInputStream(pxar));
        aw.finish();
        assertArrayEquals(catalog, fromArchive.toByteArray());

        if (crypt == null) {
            assertEquals(digests(dir, "root.pxar.didx"), chunkDigests(myPxar.toByteArray(), 4 << 20));
            assertEquals(digests(dir, "catalog.pcat1.didx"), chunkDigests(myCatalog.toByteArray(), 512 << 10));
        }
    }

    private static CryptConfig key() throws Exception {
        Path kf = SharedVectors.require("vectors/real-client/keys/key-kdf-none.json");
        return KeyConfig.parse(Files.readAllBytes(kf), kf.toString()).decrypt(() -> null, kf.toString());
    }

    private static List<String> digests(Path dir, String archive) throws Exception {
        JsonNode idx = JSON.readTree(dir.resolve("indexes/" + archive + ".json").toFile());
        List<String> out = new ArrayList<>();
        for (JsonNode a : idx.get("appends")) {
            a.get("digest-list").forEach(d -> out.add(d.asText()));
        }
        return out;
    }

    /** The archive's bytes: its chunks decoded and concatenated in index order. */
    private static byte[] stream(Path dir, String archive, CryptConfig crypt) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String d : digests(dir, archive)) {
            Path chunk = dir.resolve("chunks/" + d);
            if (!Files.exists(chunk)) { // an incremental run uploads only new chunks: the rest are the previous snapshot's
                chunk = dir.resolveSibling("dir-plain").resolve("chunks/" + d);
            }
            byte[] raw = Files.readAllBytes(chunk);
            out.writeBytes(DataBlob.wrap(raw, d).decode(d, -1, crypt));
        }
        return out.toByteArray();
    }

    private static List<String> chunkDigests(byte[] data, int avg) throws Exception {
        List<String> out = new ArrayList<>();
        try (ChunkingOutputStream chunks = ChunkingOutputStream.buzhash(avg, (d, len, end) -> {
            try {
                MessageDigest sha = MessageDigest.getInstance("SHA-256");
                sha.update(d, 0, len);
                out.add(HexFormat.of().formatHex(sha.digest()));
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        })) {
            chunks.write(data);
        }
        return out;
    }

    /** "type path size mtime" for every entry, as both the archive and the catalog know them. */
    private static List<String> archiveListing(byte[] pxar) throws Exception {
        List<String> out = new ArrayList<>();
        try (PxarDecoder d = new PxarDecoder(new java.io.ByteArrayInputStream(pxar))) {
            PxarEntry e;
            while ((e = d.next()) != null) {
                String path = "/root.pxar.didx" + e.displayPath();
                switch (e.kind()) {
                    case DIRECTORY -> out.add("d " + path);
                    case FILE -> out.add("f " + path + " " + e.fileSize() + " " + e.metadata().stat().mtimeSecs());
                    case SYMLINK -> out.add("l " + path);
                    case HARDLINK -> out.add("h " + path);
                    case FIFO -> out.add("p " + path);
                    case SOCKET -> out.add("s " + path);
                    case DEVICE -> out.add((e.metadata().stat().fileType() == 0060000 ? "b " : "c ") + path);
                    default -> { }
                }
            }
        }
        out.set(0, "d /root.pxar.didx");
        return out;
    }

    private static List<String> catalogListing(byte[] catalog) throws Exception {
        CatalogReader r = new CatalogReader(catalog);
        List<String> out = new ArrayList<>();
        walk(r, r.root(), "", out);
        return out;
    }

    private static void walk(CatalogReader r, CatalogEntry dir, String path, List<String> out) throws Exception {
        for (CatalogEntry e : r.list(dir)) {
            String p = path + "/" + e.displayName();
            out.add(e.type() + " " + p + (e.type() == 'f' ? " " + e.size() + " " + e.mtime() : ""));
            if (e.isDirectory()) {
                walk(r, e, p, out);
            }
        }
    }
}
