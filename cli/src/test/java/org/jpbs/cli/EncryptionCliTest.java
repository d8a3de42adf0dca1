package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.crypto.Fingerprint;
import org.jpbs.core.crypto.KeyConfig;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.datastore.snapshot.Datastore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client-side encryption through the command line: key files for the three kdf choices, local
 * and remote encrypted backups that restore only with their key (a wrong key or passphrase is a
 * clear error and leaves no output file), sign-only backups, master keys, and a scan of every
 * file a server stored during an encrypted backup for a plaintext marker of the source.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EncryptionCliTest {
    static final int MIB = 1024 * 1024;
    static final String MARKER = "JPBS-PLAINTEXT-MARKER-5c1e0a";
    static final String PW_A = "passphrase of key A";
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir(factory = FastTempDirs.class)
    static Path dir;

    static Path image;
    static byte[] imageBytes;
    static Path conf;
    static Path keyA;
    static Path keyB;
    static Fingerprint fpA;
    static Fingerprint fpB;
    static Path repo;

    /** 12 MiB + 1000: text with markers, zeros, random, a short text tail. */
    @BeforeAll
    static void setUp() throws IOException {
        byte[] img = new byte[12 * MIB + 1000];
        byte[] line = ("some text of the source, " + MARKER + ", more words\n").getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 4 * MIB; i++) {
            img[i] = line[i % line.length];
        }
        byte[] rnd = new byte[4 * MIB];
        new Random(12).nextBytes(rnd);
        System.arraycopy(rnd, 0, img, 8 * MIB, 4 * MIB);
        for (int i = 12 * MIB; i < img.length; i++) {
            img[i] = line[i % line.length];
        }
        imageBytes = img;
        image = dir.resolve("disk.img");
        Files.write(image, img);
        conf = dir.resolve("vm.conf");
        Files.writeString(conf, "memory: 2048\n# " + MARKER + "\n");
        repo = dir.resolve("ds");
        keyA = dir.resolve("keyA.json");
        keyB = dir.resolve("keyB.json");
    }

    @AfterAll
    static void cleanUp() throws IOException {
        for (String d : new String[] {"ds", "plain-ds", "server"}) {
            FastTempDirs.deleteTree(dir.resolve(d));
        }
    }

    static CliRunner cli(Map<String, String> extra) {
        Map<String, String> env = new HashMap<>(extra);
        return new CliRunner(dir.resolve("home"), env);
    }

    static CliRunner cli() {
        return cli(Map.of("PBS_ENCRYPTION_PASSWORD", PW_A));
    }

    static Fingerprint showFingerprint(Path key) throws IOException {
        CliRunner.Result r = cli(Map.of()).run("key", "show", "--output-format", "json", key.toString());
        assertEquals(0, r.exit(), r.all());
        JsonNode info = JSON.readTree(r.out());
        return Fingerprint.parse(info.get("fingerprint").asText());
    }

    @Test
    @Order(1)
    void keyFilesRoundTripForAllThreeKdfs() throws Exception {
        for (String kdf : new String[] {"scrypt", "pbkdf2", "none"}) {
            Path k = dir.resolve("key-" + kdf + ".json");
            CliRunner.Result r = cli().run("key", "create", "--kdf", kdf, k.toString());
            assertEquals(0, r.exit(), r.all());
            CliRunner.Result show = cli(Map.of()).run("key", "show", "--output-format", "json", k.toString());
            assertEquals(0, show.exit(), show.all());
            JsonNode info = JSON.readTree(show.out());
            assertEquals(kdf, info.get("kdf").asText());
            KeyConfig kc = KeyConfig.parse(Files.readAllBytes(k), k.toString());
            CryptConfig c = kc.decrypt(() -> PW_A.getBytes(StandardCharsets.UTF_8), k.toString());
            assertEquals(c.fingerprint().toString(), info.get("fingerprint").asText());
            assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(k)));
            if (!kdf.equals("none")) {
                // a wrong current passphrase: clear error, the file is untouched
                byte[] before = Files.readAllBytes(k);
                CliRunner.Result bad = cli(Map.of("PBS_ENCRYPTION_PASSWORD", "not the passphrase",
                        "JPBS_NEW_ENCRYPTION_PASSWORD", "another one")).run("key", "change-passphrase", k.toString());
                assertEquals(1, bad.exit(), bad.all());
                assertTrue(bad.err().contains(k + ": unable to decrypt the key - wrong passphrase?"), bad.err());
                assertArrayEquals(before, Files.readAllBytes(k));
                CliRunner.Result ok = cli(Map.of("PBS_ENCRYPTION_PASSWORD", PW_A,
                        "JPBS_NEW_ENCRYPTION_PASSWORD", "another one")).run("key", "change-passphrase", "--kdf", "pbkdf2",
                        "--hint", "the other one", k.toString());
                assertEquals(0, ok.exit(), ok.all());
                KeyConfig changed = KeyConfig.parse(Files.readAllBytes(k), k.toString());
                assertEquals(kc.created(), changed.created());
                assertEquals("the other one", changed.hint());
                assertArrayEquals(c.key(), changed.decrypt(() -> "another one".getBytes(StandardCharsets.UTF_8), "k").key());
            }
        }
        // the passphrase from a file (first line only), as PBS_ENCRYPTION_PASSWORD_FILE
        Path pwFile = dir.resolve("pw.txt");
        Files.writeString(pwFile, PW_A + "\nsecond line ignored\n");
        Path fromFile = dir.resolve("key-from-file.json");
        CliRunner.Result f = cli(Map.of("PBS_ENCRYPTION_PASSWORD_FILE", pwFile.toString())).run("key", "create", "--kdf",
                "pbkdf2", fromFile.toString());
        assertEquals(0, f.exit(), f.all());
        KeyConfig.parse(Files.readAllBytes(fromFile), "f").decrypt(() -> PW_A.getBytes(StandardCharsets.UTF_8), "f");

        // too short a passphrase: error, and no file
        Path shortPw = dir.resolve("short.json");
        CliRunner.Result s = cli(Map.of("PBS_ENCRYPTION_PASSWORD", "abc")).run("key", "create", shortPw.toString());
        assertEquals(1, s.exit(), s.all());
        assertTrue(s.err().contains("passphrase is too short"), s.err());
        assertFalse(Files.exists(shortPw));
        // without any passphrase source and no terminal
        CliRunner.Result none = cli(Map.of()).run("key", "create", dir.resolve("nopw.json").toString());
        assertEquals(1, none.exit(), none.all());
        assertTrue(none.err().contains("PBS_ENCRYPTION_PASSWORD"), none.err());
        assertFalse(Files.exists(dir.resolve("nopw.json")));

        assertEquals(0, cli().run("key", "create", "--kdf", "pbkdf2", keyA.toString()).exit()); // cheaper to open than scrypt
        assertEquals(0, cli().run("key", "create", "--kdf", "none", keyB.toString()).exit());
        fpA = showFingerprint(keyA);
        fpB = showFingerprint(keyB);

        CliRunner.Result paper = cli(Map.of()).run("key", "paperkey", "--subject", "key A", keyA.toString());
        assertEquals(0, paper.exit(), paper.all());
        assertTrue(paper.out().startsWith("Subject: key A\n\n-----BEGIN PROXMOX BACKUP KEY-----\n{\n  \"kdf\": {\n    \"PBKDF2\": {"), paper.out());
        assertTrue(paper.out().contains("\"fingerprint\": \"" + fpA + "\""), paper.out());
        assertTrue(paper.out().endsWith("-----END PROXMOX BACKUP KEY-----\n"), paper.out());
    }

    private static String snap(long t) {
        return "vm/200/" + BackupSnapshotRef.formatTime(t);
    }

    @Test
    @Order(2)
    void localEncryptedBackupRestoresOnlyWithItsKey() throws Exception {
        CliRunner.Result b = cli().run("backup", "--repository", repo.toString(), "--backup-type", "vm", "--backup-id", "200",
                "--backup-time", "1700000000", "--keyfile", keyA.toString(), "disk.img:" + image, "qemu-server.conf:" + conf);
        assertEquals(0, b.exit(), b.all());
        BackupManifest m = Datastore.open(repo).openSnapshot(new BackupSnapshotRef(
                new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "200"), 1700000000L)).manifest();
        assertEquals(fpA, m.keyFingerprint().orElseThrow());
        m.files().forEach(f -> assertEquals(CryptMode.ENCRYPT, f.cryptMode(), f.filename()));

        Path out = dir.resolve("restored.img");
        CliRunner.Result r = cli().run("restore", "-q", "--repository", repo.toString(), "--keyfile", keyA.toString(),
                snap(1700000000), "disk.img", out.toString());
        assertEquals(0, r.exit(), r.all());
        assertArrayEquals(imageBytes, Files.readAllBytes(out));
        Path confOut = dir.resolve("restored.conf");
        r = cli().run("restore", "-q", "--repository", repo.toString(), "--keyfile", keyA.toString(), snap(1700000000),
                "qemu-server.conf", confOut.toString());
        assertEquals(0, r.exit(), r.all());
        assertEquals(Files.readString(conf), Files.readString(confOut));

        // key B: refused before anything is written, naming both fingerprints
        Path bad = dir.resolve("bad.img");
        r = cli().run("restore", "--repository", repo.toString(), "--keyfile", keyB.toString(), snap(1700000000),
                "disk.img", bad.toString());
        assertEquals(1, r.exit(), r.all());
        assertTrue(r.err().contains("wrong key - manifest's key " + fpA + " does not match provided key " + fpB), r.err());
        assertFalse(Files.exists(bad));
        // no key at all
        r = cli(Map.of()).run("restore", "--repository", repo.toString(), snap(1700000000), "disk.img", bad.toString());
        assertEquals(1, r.exit(), r.all());
        assertTrue(r.err().contains("encrypted, key needed - manifest was created with key " + fpA), r.err());
        assertFalse(Files.exists(bad));
        // the right key with a wrong passphrase
        r = cli(Map.of("PBS_ENCRYPTION_PASSWORD", "wrong passphrase")).run("restore", "--repository", repo.toString(),
                "--keyfile", keyA.toString(), snap(1700000000), "disk.img", bad.toString());
        assertEquals(1, r.exit(), r.all());
        assertTrue(r.err().contains(keyA + ": unable to decrypt the key - wrong passphrase?"), r.err());
        assertFalse(Files.exists(bad));

        // a second backup with the same key reuses every chunk; one with key B reuses none
        long chunks = CliRunner.chunkCount(repo);
        b = cli().run("backup", "--repository", repo.toString(), "--backup-type", "vm", "--backup-id", "200",
                "--backup-time", "1700003600", "--keyfile", keyA.toString(), "disk.img:" + image);
        assertEquals(0, b.exit(), b.all());
        assertTrue(b.err().contains("0 B new"), b.err());
        assertEquals(chunks, CliRunner.chunkCount(repo));
        b = cli().run("backup", "--repository", repo.toString(), "--backup-type", "vm", "--backup-id", "200",
                "--backup-time", "1700007200", "--keyfile", keyB.toString(), "disk.img:" + image);
        assertEquals(0, b.exit(), b.all());
        assertEquals(4, chunks, "text, zero, random and tail chunk");
        assertEquals(2 * chunks, CliRunner.chunkCount(repo), "key B stores its own chunks, the zero chunk too");

        // nothing stored holds the plaintext marker
        assertEquals(List.of(), filesContaining(repo, MARKER));
    }

    @Test
    @Order(3)
    void signOnlyKeepsChunksPlainButSignsTheManifest() throws Exception {
        CliRunner.Result b = cli().run("backup", "--repository", repo.toString(), "--backup-type", "vm", "--backup-id", "201",
                "--backup-time", "1700000000", "--keyfile", keyA.toString(), "--crypt-mode", "sign-only", "disk.img:" + image);
        assertEquals(0, b.exit(), b.all());
        BackupManifest m = Datastore.open(repo).openSnapshot(new BackupSnapshotRef(
                new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "201"), 1700000000L)).manifest();
        assertEquals(CryptMode.SIGN_ONLY, m.file("disk.img.fidx").orElseThrow().cryptMode());
        assertEquals(fpA, m.keyFingerprint().orElseThrow());
        m.verify(KeyConfig.parse(Files.readAllBytes(keyA), "A").decrypt(() -> PW_A.getBytes(StandardCharsets.UTF_8), "A"), "s");
        Path out = dir.resolve("signed.img");
        CliRunner.Result r = cli().run("restore", "-q", "--repository", repo.toString(), "--keyfile", keyA.toString(),
                "vm/201/" + BackupSnapshotRef.formatTime(1700000000), "disk.img", out.toString());
        assertEquals(0, r.exit(), r.all());
        assertArrayEquals(imageBytes, Files.readAllBytes(out));
        // as the PBS client: without a key, sign-only (plain) archives restore, the signature unchecked
        r = cli(Map.of()).run("restore", "-q", "--repository", repo.toString(), "vm/201/" + BackupSnapshotRef.formatTime(1700000000),
                "disk.img", dir.resolve("nokey.img").toString());
        assertEquals(0, r.exit(), r.all());
        assertArrayEquals(imageBytes, Files.readAllBytes(dir.resolve("nokey.img")));
        // contradicting options are usage errors with PBS's texts
        r = cli().run("backup", "--repository", repo.toString(), "--keyfile", keyA.toString(), "--crypt-mode", "none",
                "disk.img:" + image);
        assertEquals(2, r.exit(), r.all());
        assertTrue(r.err().contains("--keyfile/--keyfd and --crypt-mode=none are mutually exclusive"), r.err());
        r = cli().run("backup", "--repository", repo.toString(), "--crypt-mode", "encrypt", "disk.img:" + image);
        assertEquals(1, r.exit(), r.all());
        assertTrue(r.err().contains("--crypt-mode without --keyfile and no default key file available"), r.err());
    }

    @Test
    @Order(4)
    void masterKeyRecoversTheKeyOfABackup() throws Exception {
        Path mk = dir.resolve("master");
        Files.createDirectories(mk);
        Map<String, String> env = Map.of("PBS_ENCRYPTION_PASSWORD", PW_A, "JPBS_MASTER_KEY_PASSWORD", "master passphrase");
        CliRunner.Result c = cli(env).run("key", "create-master-key", "--bits", "3072", "--output-dir", mk.toString());
        assertEquals(0, c.exit(), c.all());
        CliRunner.Result b = cli(env).run("backup", "--repository", repo.toString(), "--backup-type", "vm", "--backup-id", "202",
                "--backup-time", "1700000000", "--keyfile", keyA.toString(), "--master-pubkey-file",
                mk.resolve("master-public.pem").toString(), "qemu-server.conf:" + conf);
        assertEquals(0, b.exit(), b.all());
        BackupSnapshotRef ref = new BackupSnapshotRef(new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "202"), 1700000000L);
        var reader = Datastore.open(repo).openSnapshot(ref);
        assertEquals(CryptMode.ENCRYPT, reader.manifest().file("rsa-encrypted.key.blob").orElseThrow().cryptMode());
        Path blob = reader.dir().resolve("rsa-encrypted.key.blob");

        Path wrongOut = dir.resolve("recovered-wrong.json");
        CliRunner.Result bad = cli(Map.of("JPBS_MASTER_KEY_PASSWORD", "not it")).run("key", "import-with-master-key",
                "--kdf", "none", mk.resolve("master-private.pem").toString(), blob.toString(), wrongOut.toString());
        assertEquals(1, bad.exit(), bad.all());
        assertTrue(bad.err().contains("cannot decrypt the master private key - wrong passphrase?"), bad.err());
        assertFalse(Files.exists(wrongOut));

        // the lost-key case (regression s3-break47): restore the key blob without any key, as the PBS client allows
        Path restoredBlob = dir.resolve("restored-rsa-key.blob");
        CliRunner.Result rb = cli(Map.of()).run("restore", "-q", "--repository", repo.toString(),
                "vm/202/" + BackupSnapshotRef.formatTime(1700000000), "rsa-encrypted.key.blob", restoredBlob.toString());
        assertEquals(0, rb.exit(), rb.all());
        assertArrayEquals(DataBlob.wrap(Files.readAllBytes(blob), "b").decode("b", -1), Files.readAllBytes(restoredBlob));

        Path recovered = dir.resolve("recovered.json");
        CliRunner.Result imp = cli(env).run("key", "import-with-master-key", mk.resolve("master-private.pem").toString(),
                restoredBlob.toString(), recovered.toString());
        assertEquals(0, imp.exit(), imp.all());
        assertEquals(fpA, showFingerprint(recovered));
        assertEquals(KeyConfig.parse(Files.readAllBytes(keyA), "A").created(),
                KeyConfig.parse(Files.readAllBytes(recovered), "R").created());
        Path out = dir.resolve("recovered.conf");
        CliRunner.Result r = cli().run("restore", "-q", "--repository", repo.toString(), "--keyfile", recovered.toString(),
                "vm/202/" + BackupSnapshotRef.formatTime(1700000000), "qemu-server.conf", out.toString());
        assertEquals(0, r.exit(), r.all());
        assertEquals(Files.readString(conf), Files.readString(out));
    }

    @Test
    @Order(5)
    void serverStoresNoPlaintextOfAnEncryptedBackup() throws Exception {
        try (NetTestServer server = NetTestServer.startWithToken(dir.resolve("server"))) {
            Map<String, String> env = new HashMap<>(server.env());
            env.put("PBS_ENCRYPTION_PASSWORD", PW_A);
            CliRunner.Result b = cli(env).run("backup", "--backup-type", "vm", "--backup-id", "300", "--backup-time",
                    "1700000000", "--keyfile", keyA.toString(), "disk.img:" + image, "qemu-server.conf:" + conf);
            assertEquals(0, b.exit(), b.all());
            List<Path> stored = filesUnder(server.storePath);
            assertTrue(stored.size() >= 6, "chunks, index, blob, manifest, owner: " + stored);
            assertEquals(List.of(), filesContaining(server.storePath, MARKER));
            BackupManifest m = server.manifest(new BackupSnapshotRef(
                    new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "300"), 1700000000L));
            assertEquals(fpA, m.keyFingerprint().orElseThrow());

            Path out = dir.resolve("net.img");
            CliRunner.Result r = cli(env).run("restore", "-q", "--keyfile", keyA.toString(), "vm/300/"
                    + BackupSnapshotRef.formatTime(1700000000), "disk.img", out.toString());
            assertEquals(0, r.exit(), r.all());
            assertArrayEquals(imageBytes, Files.readAllBytes(out));
            Path bad = dir.resolve("net-bad.img");
            r = cli(env).run("restore", "--keyfile", keyB.toString(), "vm/300/" + BackupSnapshotRef.formatTime(1700000000),
                    "disk.img", bad.toString());
            assertEquals(1, r.exit(), r.all());
            assertTrue(r.err().contains("wrong key - manifest's key " + fpA + " does not match provided key " + fpB), r.err());
            assertFalse(Files.exists(bad));

            // control: the same source unencrypted does leave the marker in stored files, so the scan can see it
            env.remove("PBS_ENCRYPTION_PASSWORD");
            b = cli(env).run("backup", "--backup-type", "vm", "--backup-id", "301", "--backup-time", "1700000000",
                    "qemu-server.conf:" + conf);
            assertEquals(0, b.exit(), b.all());
            assertEquals(1, filesContaining(server.storePath, MARKER).size());
        }
    }

    static List<Path> filesUnder(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile).toList();
        }
    }

    /** Every regular file below {@code root} whose bytes contain {@code marker}, also inside zstd frames of blobs. */
    static List<Path> filesContaining(Path root, String marker) throws IOException {
        byte[] m = marker.getBytes(StandardCharsets.US_ASCII);
        List<Path> hits = new ArrayList<>();
        for (Path f : filesUnder(root)) {
            byte[] data = Files.readAllBytes(f);
            boolean hit = indexOf(data, m) >= 0;
            if (!hit && data.length >= 12) {
                try {
                    DataBlob blob = DataBlob.wrap(data, f.toString());
                    if (!blob.isEncrypted()) {
                        hit = indexOf(blob.decode(f.toString(), -1), m) >= 0;
                    }
                } catch (IOException e) {
                    // not a blob (index, owner file, lock): raw bytes checked above
                }
            }
            if (hit) {
                hits.add(f);
            }
        }
        return hits;
    }

    static int indexOf(byte[] data, byte[] m) {
        outer:
        for (int i = 0; i + m.length <= data.length; i++) {
            for (int j = 0; j < m.length; j++) {
                if (data[i + j] != m[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** Regressions (s3-break47): key files were overwritten; some errors did not name the file. */
    @Test
    @Order(6)
    void keyFilesAreNeverOverwrittenAndBadFilesAreNamed() throws Exception {
        byte[] before = Files.readAllBytes(keyB);
        CliRunner.Result r = cli().run("key", "create", "--kdf", "none", keyB.toString());
        assertEquals(1, r.exit(), r.all());
        assertEquals("jpbs: error: key file " + keyB + " already exists; remove it first or give another PATH\n", r.err());
        assertArrayEquals(before, Files.readAllBytes(keyB));

        Path mdir = dir.resolve("master-exists");
        Files.createDirectories(mdir);
        Files.writeString(mdir.resolve("master-private.pem"), "old");
        r = cli(Map.of("JPBS_MASTER_KEY_PASSWORD", "master passphrase")).run("key", "create-master-key", "--output-dir",
                mdir.toString());
        assertEquals(1, r.exit(), r.all());
        assertTrue(r.err().contains("master-private.pem already exists"), r.all());
        assertEquals("old", Files.readString(mdir.resolve("master-private.pem")));
        assertFalse(Files.exists(mdir.resolve("master-public.pem")));

        r = cli().run("key", "show", mdir.toString());
        assertEquals(1, r.exit(), r.all());
        assertEquals("jpbs: error: " + mdir + ": Is a directory\n", r.err());
        r = cli(Map.of("JPBS_MASTER_KEY_PASSWORD", "master passphrase")).run("key", "import-with-master-key", keyB.toString(), conf.toString(), dir.resolve("rec.json").toString());
        assertEquals(ExitCodes.CORRUPT, r.exit(), r.all()); // a master key file that holds no PEM: corrupt data
        assertEquals("jpbs: error: " + keyB + ": no PEM data found\n", r.err());
        Path missing = dir.resolve("no-such-password-file");
        r = cli(Map.of("PBS_ENCRYPTION_PASSWORD_FILE", missing.toString())).run("key", "change-passphrase", keyA.toString());
        assertEquals(1, r.exit(), r.all());
        assertEquals("jpbs: error: PBS_ENCRYPTION_PASSWORD_FILE: cannot read " + missing + ": no such file or directory\n",
                r.err());
    }
}
