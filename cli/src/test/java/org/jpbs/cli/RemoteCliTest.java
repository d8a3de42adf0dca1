package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.blob.ZeroChunks;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.manifest.BackupManifest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line against a real jpbs server on loopback (static API token): backup of a
 * ~40 MiB image over the network, restores with fetch concurrency 1 and 16, an incremental
 * backup that uploads only the changed chunks, and the TLS trust rules.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RemoteCliTest {
    static final int MIB = 1024 * 1024;
    static final long T1 = 1_700_000_000L;
    static final long T2 = 1_700_003_600L;
    static final BackupGroupRef GROUP = new BackupGroupRef(BackupNamespace.ROOT,
            org.jpbs.core.api.BackupType.VM, "100");

    @TempDir(factory = FastTempDirs.class)
    static Path shared;

    @TempDir
    Path tmp;

    static NetTestServer server;
    static byte[] image;
    static Path imagePath;
    static Path conf;

    /**
     * 40 MiB + 12345 bytes: random [0,12M), zeros [12M,20M), random [20M,24M), text-like
     * [24M,28M), zeros [28M,32M), random to the end (the last chunk is short).
     */
    static byte[] seededImage(long seed) {
        byte[] img = new byte[40 * MIB + 12345];
        Random r = new Random(seed);
        fill(r, img, 0, 12 * MIB);
        fill(r, img, 20 * MIB, 4 * MIB);
        byte[] words = "backup restore chunk digest index proxmox jpbs\n".getBytes(StandardCharsets.US_ASCII);
        for (int i = 24 * MIB; i < 28 * MIB; i++) {
            img[i] = words[(i * 7 + (i >> 12)) % words.length];
        }
        fill(r, img, 32 * MIB, img.length - 32 * MIB);
        return img;
    }

    private static void fill(Random r, byte[] b, int off, int len) {
        byte[] t = new byte[len];
        r.nextBytes(t);
        System.arraycopy(t, 0, b, off, len);
    }

    /** Distinct non-zero 4 MiB chunks of an image. */
    static int distinctDataChunks(byte[] img) {
        Set<Digest> seen = new HashSet<>();
        for (int off = 0; off < img.length; off += 4 * MIB) {
            int len = Math.min(4 * MIB, img.length - off);
            if (!ZeroChunks.isZero(img, off, len)) {
                seen.add(Digest.sha256(img, off, len));
            }
        }
        return seen.size();
    }

    @BeforeAll
    static void start() throws IOException {
        server = NetTestServer.startWithToken(shared.resolve("server"));
        image = seededImage(40);
        imagePath = shared.resolve("disk.img");
        Files.write(imagePath, image);
        conf = shared.resolve("vm.conf");
        Files.writeString(conf, "memory: 2048\ncores: 4\n");
    }

    @AfterAll
    static void stop() throws IOException {
        if (server != null) {
            server.close();
        }
        FastTempDirs.deleteTree(shared.resolve("server/ds"));
    }

    private CliRunner cli(Map<String, String> env) {
        return new CliRunner(tmp.resolve("home"), env);
    }

    private CliRunner cli() {
        return cli(server.env());
    }

    static String sha256(Path p) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        try (InputStream in = Files.newInputStream(p)) {
            byte[] buf = new byte[1 << 20];
            for (int n; (n = in.read(buf)) > 0; ) {
                md.update(buf, 0, n);
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }

    @Test
    @Order(1)
    void backupOverTheNetworkThenRestoreWithOneAndSixteenFetches() throws Exception {
        CliRunner.Result b = cli().run("backup", "--backup-type", "vm", "--backup-id", "100", "--backup-time",
                Long.toString(T1), "--upload-concurrency", "4", "disk.img:" + imagePath, "qemu-server.conf:" + conf);
        assertEquals(0, b.exit(), b.all());
        assertTrue(b.err().contains("disk.img.fidx: 40.0 MiB"), b.err());
        BackupSnapshotRef ref = new BackupSnapshotRef(GROUP, T1);
        BackupManifest m = server.manifest(ref);
        assertEquals(List.of("disk.img.fidx", "qemu-server.conf.blob"),
                m.files().stream().map(f -> f.filename()).sorted().toList());
        assertEquals(image.length, m.file("disk.img.fidx").orElseThrow().size());
        // every distinct data chunk once, plus the zero chunk once
        assertEquals(distinctDataChunks(image) + 1, server.uploadedChunks(ref));

        String want = sha256(imagePath);
        for (String fetches : new String[] {"1", "16"}) {
            Path out = tmp.resolve("restored-" + fetches + ".img");
            CliRunner.Result r = cli().run("restore", "--fetch-concurrency", fetches, "vm/100/"
                    + BackupSnapshotRef.formatTime(T1), "disk.img", out.toString());
            assertEquals(0, r.exit(), r.all());
            assertEquals(want, sha256(out), "fetch concurrency " + fetches);
            assertTrue(r.err().contains("fetched"), r.err());
        }
        // to standard output (in order), sparse file, and the blob
        CliRunner.Result toStdout = cli().run("restore", "-q", "vm/100/" + BackupSnapshotRef.formatTime(T1),
                "disk.img.fidx", "-");
        assertEquals(0, toStdout.exit(), toStdout.err());
        assertArrayEquals(image, toStdout.raw());
        Map<String, String> env = new HashMap<>(server.env());
        env.put("PBS_RESTORE_FETCH_CONCURRENCY", "3");
        env.put("PBS_RESTORE_MAX_THREADS", "2");
        Path sparse = tmp.resolve("sparse.img");
        CliRunner.Result sp = cli(env).run("restore", "--sparse", "vm/100/" + BackupSnapshotRef.formatTime(T1),
                "disk.img", sparse.toString());
        assertEquals(0, sp.exit(), sp.all());
        assertTrue(sp.err().contains("left as holes"), sp.err());
        assertEquals(want, sha256(sparse));
        CliRunner.Result c = cli().run("restore", "-q", "vm/100/" + BackupSnapshotRef.formatTime(T1),
                "qemu-server.conf", "-");
        assertEquals("memory: 2048\ncores: 4\n", c.out());

        // "index.json" is the manifest as stored on the server, as the PBS client restores it
        CliRunner.Result idx = cli().run("restore", "-q", "vm/100/" + BackupSnapshotRef.formatTime(T1), "index.json", "-");
        assertEquals(0, idx.exit(), idx.err());
        byte[] stored = Files.readAllBytes(server.storePath.resolve("vm/100/" + BackupSnapshotRef.formatTime(T1)
                + "/index.json.blob"));
        assertArrayEquals(org.jpbs.core.blob.DataBlob.wrap(stored, "m").decode("m", -1), idx.raw());
        assertEquals(m.files(), BackupManifest.parse(idx.raw(), "restored index.json").files());

        // this test server has no REST listing ('snapshot files' asks GET .../files): the manifest over the reader protocol
        CliRunner.Result files = cli().run("restore", "vm/100/" + BackupSnapshotRef.formatTime(T1), "index.json", "-");
        assertEquals(0, files.exit(), files.all());
        assertTrue(files.out().contains("disk.img.fidx") && files.out().contains(Long.toString(image.length)),
                files.out());
    }

    @Test
    @Order(2)
    void secondBackupUploadsOnlyTheChangedChunks() throws Exception {
        byte[] modified = image.clone();
        modified[5 * MIB + 17] ^= 0x55;                 // chunk 1
        modified[image.length - 3] ^= 0x01;             // the short last chunk
        modified[13 * MIB] = 7;                         // chunk 3, previously all zeros
        Path mod = tmp.resolve("modified.img");
        Files.write(mod, modified);
        CliRunner.Result b = cli().run("backup", "-q", "--backup-type", "vm", "--backup-id", "100", "--backup-time",
                Long.toString(T2), "disk.img:" + mod);
        assertEquals(0, b.exit(), b.all());
        BackupSnapshotRef ref = new BackupSnapshotRef(GROUP, T2);
        assertEquals(3, server.uploadedChunks(ref), "only the three changed chunks are uploaded");

        Path out = tmp.resolve("restored-2.img");
        CliRunner.Result r = cli().run("restore", "-q", "vm/100/" + BackupSnapshotRef.formatTime(T2), "disk.img",
                out.toString());
        assertEquals(0, r.exit(), r.all());
        assertArrayEquals(modified, Files.readAllBytes(out));
        // an older snapshot at the same time is refused by the server, not silently replaced
        CliRunner.Result again = cli().run("backup", "-q", "--backup-type", "vm", "--backup-id", "100",
                "--backup-time", Long.toString(T2), "disk.img:" + mod);
        assertEquals(1, again.exit(), again.all());
        assertTrue(again.err().contains("backup timestamp is older than last backup"), again.err());
        server.awaitIdle();
        assertEquals(2, server.datastore().listSnapshots(GROUP).size());
    }

    @Test
    @Order(3)
    void untrustedCertificatesAreRefusedShowingTheFingerprint() {
        String fp = server.fingerprint();
        String wrong = "00:".repeat(31) + "00";
        Map<String, String> env = new HashMap<>(server.env());
        env.put("PBS_FINGERPRINT", wrong);
        CliRunner.Result r = cli(env).run("snapshot", "files", "vm/100/" + BackupSnapshotRef.formatTime(T1));
        assertEquals(1, r.exit(), r.all());
        assertTrue(r.err().contains("certificate fingerprint " + fp + " is not trusted"), r.err());
        assertTrue(r.err().contains("PBS_FINGERPRINT=" + fp), r.err());
        assertEquals(1, r.err().lines().count(), r.err());

        env.remove("PBS_FINGERPRINT");
        CliRunner.Result none = cli(env).run("backup", "-q", "c.conf:" + conf);
        assertEquals(1, none.exit(), none.all());
        assertTrue(none.err().contains("certificate fingerprint " + fp + " is not trusted; set PBS_FINGERPRINT=" + fp
                + " to trust it"), none.err());

        // --fingerprint wins over the environment, case does not matter
        env.put("PBS_FINGERPRINT", wrong);
        CliRunner.Result ok = cli(env).run("restore", "--fingerprint", fp.toUpperCase(),
                "vm/100/" + BackupSnapshotRef.formatTime(T1), "index.json", "-");
        assertEquals(0, ok.exit(), ok.all());

        CliRunner.Result badFormat = cli(env).run("snapshot", "files", "--fingerprint", "abc", "vm/100/"
                + BackupSnapshotRef.formatTime(T1));
        // a malformed fingerprint is a usage error (exit 2), from the option or the variable standing for it
        assertEquals(2, badFormat.exit(), badFormat.all());
        assertTrue(badFormat.err().contains("--fingerprint: invalid certificate fingerprint 'abc'"), badFormat.err());
        env.put("PBS_FINGERPRINT", "zz");
        CliRunner.Result badEnv = cli(env).run("backup", "-q", "c.conf:" + conf);
        assertEquals(2, badEnv.exit(), badEnv.all());
        assertTrue(badEnv.err().contains("PBS_FINGERPRINT: invalid certificate fingerprint 'zz'"), badEnv.err());
    }

    @Test
    @Order(4)
    void credentialsAndServerErrorsAreOneLine() throws Exception {
        Map<String, String> env = new HashMap<>(server.env());
        env.remove("PBS_PASSWORD");
        CliRunner.Result noPw = cli(env).run("backup", "-q", "c.conf:" + conf);
        assertEquals(1, noPw.exit());
        assertTrue(noPw.err().contains("set PBS_PASSWORD"), noPw.err());

        env.put("PBS_PASSWORD", "wrong-secret");
        CliRunner.Result badPw = cli(env).run("backup", "-q", "c.conf:" + conf);
        assertEquals(ExitCodes.DENIED, badPw.exit(), badPw.err()); // 401: README.md, "Exit codes"
        assertTrue(badPw.err().contains("401"), badPw.err());

        CliRunner.Result noSnap = cli().run("restore", "vm/100/2001-01-01T00:00:00Z", "disk.img",
                tmp.resolve("x").toString());
        assertEquals(1, noSnap.exit());
        assertTrue(noSnap.err().contains("does not exist"), noSnap.err());
        assertFalse(Files.exists(tmp.resolve("x")));

        CliRunner.Result noArchive = cli().run("restore", "vm/100/" + BackupSnapshotRef.formatTime(T1), "nope.img",
                tmp.resolve("x").toString());
        assertEquals(ExitCodes.NOT_FOUND, noArchive.exit());
        assertTrue(noArchive.err().contains("archive 'nope.img' is not in snapshot"), noArchive.err());

        CliRunner.Result badRepo = cli(Map.of()).run("snapshot", "list", "--repository", "user@pam@host:x");
        assertEquals(2, badRepo.exit()); // a malformed option value is a usage error
        assertTrue(badRepo.err().contains("--repository: invalid repository 'user@pam@host:x'"), badRepo.err());
        server.awaitIdle();
    }

}
