package org.jpbs.core.realclient;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.EncryptedDataException;
import org.jpbs.core.index.DynamicIndex;
import org.jpbs.core.index.DynamicIndexBuilder;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.FixedIndexBuilder;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Checks core's codecs against the captures of the real proxmox-backup-client 3.1.2 (vectors/real-client). */
class RealClientCapturesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Path root;

    @BeforeAll
    static void locate() {
        root = SharedVectors.require("vectors/real-client");
    }

    private static List<Path> cases() throws IOException {
        try (Stream<Path> s = Files.list(root)) {
            return s.filter(p -> Files.isDirectory(p.resolve("blobs"))).sorted().toList();
        }
    }

    private static List<Path> list(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }

    @Test
    void everyChunkDecodesOrIsRecognisedAsEncrypted() throws Exception {
        int plain = 0;
        int encrypted = 0;
        for (Path c : cases()) {
            for (Path f : list(c.resolve("chunks"))) {
                String name = f.getFileName().toString();
                assertTrue(Digest.isHex(name), name);
                DataBlob b = DataBlob.wrap(Files.readAllBytes(f), f.toString());
                b.verifyCrc(f.toString());
                if (b.isEncrypted()) {
                    assertEquals(44, b.headerSize());
                    var e = assertThrows(EncryptedDataException.class, () -> b.decode(name, -1));
                    assertTrue(e.getMessage().endsWith("encrypted, key needed"));
                    encrypted++;
                } else {
                    byte[] data = b.decode(f.toString(), -1);
                    assertEquals(name, Digest.sha256(data).hex(), f.toString());
                    assertArrayEquals(data, b.decode(f.toString(), data.length));
                    plain++;
                }
            }
        }
        assertTrue(plain >= 5, "plain chunks: " + plain);
        assertTrue(encrypted >= 5, "encrypted chunks: " + encrypted);
    }

    @Test
    void manifestsParseAndReserialiseByteIdentically() throws Exception {
        int checked = 0;
        for (Path c : cases()) {
            Path p = c.resolve("blobs/index.json.blob");
            DataBlob blob = DataBlob.wrap(Files.readAllBytes(p), p.toString());
            assertFalse(blob.isEncrypted());
            byte[] json = blob.decode(p.toString(), -1);
            BackupManifest real = BackupManifest.fromBlob(blob, p.toString());
            assertFalse(real.files().isEmpty());
            boolean encrypted = c.getFileName().toString().contains("encrypted");
            if (encrypted) {
                assertNotNull(real.signature(), c.toString());
                assertTrue(real.unprotected().has("key-fingerprint"), c.toString());
            }
            // rebuild with jpbs from the parsed fields only
            BackupManifest mine = new BackupManifest(real.backupType(), real.backupId(), real.backupTime());
            for (FileEntry f : real.files()) {
                mine.addFile(new FileEntry(f.filename(), f.cryptMode(), f.size(), f.csum()));
            }
            mine.setSignature(real.signature());
            real.unprotected().properties().forEach(e -> mine.unprotected().set(e.getKey(), e.getValue()));
            assertEquals(new String(json, java.nio.charset.StandardCharsets.UTF_8),
                    new String(mine.toJson(), java.nio.charset.StandardCharsets.UTF_8), c.toString());
            assertArrayEquals(json, mine.toJson());
            // and our own blob of it decodes to the same manifest
            assertArrayEquals(json, BackupManifest.fromBlob(mine.toBlob(), "mine").toJson());
            checked++;
        }
        assertTrue(checked >= 6, "cases: " + checked);
    }

    @Test
    void indexChecksumsMatchTheClient() throws Exception {
        int checked = 0;
        for (Path c : cases()) {
            BackupManifest manifest = BackupManifest.fromBlob(
                    DataBlob.wrap(Files.readAllBytes(c.resolve("blobs/index.json.blob")), "m"), "m");
            for (Path f : list(c.resolve("indexes"))) {
                if (!f.toString().endsWith(".json")) {
                    continue;
                }
                JsonNode j = JSON.readTree(f.toFile());
                List<Digest> digests = new ArrayList<>();
                List<Long> offsets = new ArrayList<>();
                for (JsonNode a : j.get("appends")) {
                    a.get("digest-list").forEach(d -> digests.add(Digest.parse(d.asText())));
                    a.get("offset-list").forEach(o -> offsets.add(o.asLong()));
                }
                JsonNode close = j.get("close-params");
                long size = Long.parseLong(close.get("size").asText());
                Digest csum = Digest.parse(close.get("csum").asText());
                int count = Integer.parseInt(close.get("chunk-count").asText());
                IndexFile idx;
                if (j.get("kind").asText().equals("fixed")) {
                    FixedIndexBuilder b = new FixedIndexBuilder(size, 4 << 20);
                    for (int i = 0; i < digests.size(); i++) {
                        // the offset list holds chunk start offsets
                        assertEquals(0, offsets.get(i) % (4 << 20));
                        b.set((int) (offsets.get(i) / (4 << 20)), digests.get(i));
                    }
                    idx = b.build(new UUID(0, 0), 0);
                    FixedIndex back = FixedIndex.read(java.nio.ByteBuffer.wrap(((FixedIndex) idx).encode()), "x");
                    assertEquals(csum, back.storedCsum());
                } else {
                    // the offset list holds chunk start offsets (the first is 0); ends are the
                    // next start, and the stream size for the last chunk
                    assertEquals(0L, offsets.get(0));
                    DynamicIndexBuilder b = new DynamicIndexBuilder();
                    for (int i = 0; i < digests.size(); i++) {
                        long end = i + 1 < offsets.size() ? offsets.get(i + 1) : size;
                        b.append(end, digests.get(i));
                    }
                    idx = b.build(new UUID(0, 0), 0);
                    DynamicIndex back = DynamicIndex.read(java.nio.ByteBuffer.wrap(((DynamicIndex) idx).encode()), "x");
                    assertEquals(csum, back.storedCsum());
                }
                assertEquals(csum, idx.computeCsum(), f.toString());
                assertEquals(size, idx.size(), f.toString());
                assertEquals(count, idx.chunkCount(), f.toString());
                FileEntry e = manifest.file(j.get("archive-name").asText()).orElseThrow();
                assertEquals(csum, e.csum(), f.toString());
                assertEquals(size, e.size(), f.toString());
                checked++;
            }
        }
        assertTrue(checked >= 9, "indexes: " + checked);
    }
}
