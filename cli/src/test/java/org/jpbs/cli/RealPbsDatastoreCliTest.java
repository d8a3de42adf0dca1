package org.jpbs.cli;

import org.jpbs.server.RealClientInputs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens the datastore written by the real PBS 3.1.2 server
 * ({@code ../shared/vectors/real-pbs/datastore.tar.gz}) through the command line, as a user
 * would: lists its snapshots (namespace {@code prod} included) and restores every
 * unencrypted archive to the documented input. Skips when {@code ../shared} is absent (fails with CI=true, see SharedVectors).
 */
class RealPbsDatastoreCliTest {
    @TempDir(factory = FastTempDirs.class)
    static Path tmp;
    static Path ds;

    @BeforeAll
    static void unpack() throws Exception {
        Path tar = SharedVectors.require("vectors/real-pbs/datastore.tar.gz");
        Process p = new ProcessBuilder("tar", "-xzf", tar.toString(), "-C", tmp.toString()).inheritIO().start();
        assertEquals(0, p.waitFor(), "tar -xzf failed");
        ds = tmp.resolve("golden-ds");
    }

    @org.junit.jupiter.api.AfterAll
    static void deleteDatastore() throws java.io.IOException {
        if (ds != null) {
            FastTempDirs.deleteTree(ds);
        }
    }

    record Result(int exit, String out, String err, byte[] raw) {}

    static Result jpbs(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            CliContext sys = CliContext.system();
            int code = Main.run(new CliContext(o, e, o, sys.env(), sys.home(), false), args);
            return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8),
                    out.toByteArray());
        }
    }

    @Test
    void listsAllSnapshotsIncludingNamespace() {
        Result r = jpbs("snapshot", "list", "--repository", ds.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("vm/100/2023-11-14T22:13:20Z"), r.out());
        assertTrue(r.out().contains("vm/100/2023-11-14T23:13:20Z"), r.out());
        assertTrue(r.out().contains("vm/200/2023-11-14T22:13:20Z"), r.out());
        assertTrue(r.out().contains("host/web/2023-11-14T22:13:20Z"), r.out());
        assertTrue(r.out().contains("prod"), r.out());
        Result ns = jpbs("snapshot", "list", "--repository", ds.toString(), "--ns", "prod");
        assertEquals(0, ns.exit(), ns.err());
        assertTrue(ns.out().contains("host/web/2023-11-14T22:13:20Z"), ns.out());
        assertTrue(!ns.out().contains("vm/200"), ns.out());
    }

    @Test
    void restoresImageAndIncrementalAndConfig() throws Exception {
        Path img = tmp.resolve("restored.img");
        Result r = jpbs("restore", "-q", "--repository", ds.toString(), "vm/100/2023-11-14T22:13:20Z", "drive-scsi0.img", img.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals(RealClientInputs.IMAGE_SHA256, Digest.sha256(Files.readAllBytes(img)).hex());

        Path inc = tmp.resolve("restored-inc.img");
        r = jpbs("restore", "-q", "--sparse", "--repository", ds.toString(), "vm/100/2023-11-14T23:13:20Z", "drive-scsi0.img.fidx", inc.toString());
        assertEquals(0, r.exit(), r.err());
        assertArrayEquals(RealClientInputs.modifiedImage(), Files.readAllBytes(inc));

        Path conf = tmp.resolve("qemu-server.conf");
        r = jpbs("restore", "-q", "--repository", ds.toString(), "vm/100/2023-11-14T22:13:20Z", "qemu-server.conf", conf.toString());
        assertEquals(0, r.exit(), r.err());
        String text = Files.readString(conf);
        assertTrue(text.contains("boot: order=scsi0"), text);
        assertTrue(text.contains("memory: 2048"), text);
        assertTrue(text.contains("scsi0: local:100/vm-100-disk-0.raw,size=9449529"), text);
    }

    @Test
    void restoresPxarArchiveAsRawStream() throws Exception {
        // as proxmox-backup-client: a file archive restored to "-" is its raw pxar stream on stdout
        // (a directory target extracts it instead, see FileArchiveCliTest)
        Result r = jpbs("restore", "-q", "--repository", ds.toString(), "--ns", "prod",
                "host/web/2023-11-14T22:13:20Z", "root.pxar.didx", "-");
        assertEquals(0, r.exit(), r.err());
        byte[] want = Files.readAllBytes(SharedVectors.require("vectors/real-client/pxar/tree.pxar"));
        assertEquals(HexFormat.of().formatHex(Digest.sha256(want).bytes()), Digest.sha256(r.raw()).hex());
    }

    @Test
    void restoresCatalogAndManifestByTheirClientNames() throws Exception {
        // "catalog.pcat1" names catalog.pcat1.didx (a dynamic index), as the archive of the catalog
        Path cat = tmp.resolve("catalog.pcat1");
        Result r = jpbs("restore", "-q", "--repository", ds.toString(), "--ns", "prod",
                "host/web/2023-11-14T22:13:20Z", "catalog.pcat1", cat.toString());
        assertEquals(0, r.exit(), r.err());
        byte[] catalog = Files.readAllBytes(cat);
        assertEquals("91fd60f9c46758d5", HexFormat.of().formatHex(catalog, 0, 8), "catalog magic 1.0");
        // "index.json" is the manifest, written as stored (decoded JSON), to stdout with "-"
        Result m = jpbs("restore", "-q", "--repository", ds.toString(), "--ns", "prod",
                "host/web/2023-11-14T22:13:20Z", "index.json", "-");
        assertEquals(0, m.exit(), m.err());
        byte[] blob = Files.readAllBytes(ds.resolve("ns/prod/host/web/2023-11-14T22:13:20Z/index.json.blob"));
        String json = new String(org.jpbs.core.blob.DataBlob.wrap(blob, "m").decode("m", -1), StandardCharsets.UTF_8);
        assertEquals(json, m.out());
        assertTrue(json.contains("\"backup-id\": \"web\"") || json.contains("\"backup-id\":\"web\""), json);
    }

    @Test
    void encryptedSnapshotNeedsKey() {
        Path out = tmp.resolve("enc.img");
        Result r = jpbs("restore", "-q", "--repository", ds.toString(), "vm/200/2023-11-14T22:13:20Z", "drive-scsi0.img", out.toString());
        assertNotEquals(0, r.exit());
        assertTrue(r.err().contains("encrypted, key needed"), r.err());
        assertTrue(!Files.exists(out), "no output file for a failed restore");
    }

    @Test
    void encryptedSnapshotRestoresWithItsKeyOnly() throws Exception {
        Path key = SharedVectors.require("vectors/real-client/keys/key-kdf-none.json");
        Path out = tmp.resolve("enc-ok.img");
        Result r = jpbs("restore", "-q", "--repository", ds.toString(), "--keyfile", key.toString(),
                "vm/200/2023-11-14T22:13:20Z", "drive-scsi0.img", out.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals(RealClientInputs.IMAGE_SHA256, Digest.sha256(Files.readAllBytes(out)).hex());

        Path other = tmp.resolve("other-key.json");
        org.jpbs.core.crypto.KeyConfig kc = org.jpbs.core.crypto.KeyConfig.withoutPassword(new byte[32]);
        Files.write(other, kc.toJson());
        Path bad = tmp.resolve("enc-bad.img");
        r = jpbs("restore", "-q", "--repository", ds.toString(), "--keyfile", other.toString(),
                "vm/200/2023-11-14T22:13:20Z", "drive-scsi0.img", bad.toString());
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().contains("wrong key - manifest's key 92:13:c0:9e:88:1a:1d:fe:9d:f8:a0:30:62:34:e3:1e:96:1d:92:8a:79:66:a0:5b:df:eb:36:3b:05:99:45:8f"
                + " does not match provided key " + kc.fingerprint()), r.err());
        assertTrue(!Files.exists(bad), "no output file for a failed restore");
    }
}
