package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.jpbs.core.api.BackupSnapshotRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line against a server with users, tickets and the REST API: ticket login with
 * {@code PBS_PASSWORD}, token auth, {@code snapshot list} and restoring a group's latest snapshot
 * (both need the REST listing).
 */
class RemoteRestApiTest {
    @TempDir(factory = FastTempDirs.class)
    static Path shared;

    @TempDir
    Path tmp;

    static NetTestServer server;

    @BeforeAll
    static void start() throws IOException {
        server = NetTestServer.startWithUsers(shared.resolve("server"));
    }

    @AfterAll
    static void stop() throws IOException {
        if (server != null) {
            server.close();
        }
        FastTempDirs.deleteTree(shared.resolve("server/ds"));
    }

    private Map<String, String> userEnv() {
        Map<String, String> env = new HashMap<>();
        env.put("PBS_REPOSITORY", server.userRepository());
        env.put("PBS_PASSWORD", NetTestServer.ROOT_PASSWORD);
        env.put("PBS_FINGERPRINT", server.fingerprint());
        return env;
    }

    @Test
    void ticketAndTokenLoginListingAndGroupRestore() throws Exception {
        byte[] img = new byte[5 * 1024 * 1024 + 99];
        new Random(3).nextBytes(img);
        Path disk = tmp.resolve("disk.img");
        Files.write(disk, img);
        CliRunner user = new CliRunner(tmp.resolve("home"), userEnv());
        CliRunner token = new CliRunner(tmp.resolve("home"), server.env());

        // the token (DatastoreAdmin on /datastore) creates the group
        CliRunner.Result b1 = token.run("backup", "-q", "--backup-type", "vm", "--backup-id", "300", "--backup-time",
                "1700000000", "disk.img:" + disk);
        assertEquals(0, b1.exit(), b1.all());
        img[77] ^= 1;
        Files.write(disk, img);
        // root@pam logs in with its password (ticket + CSRF token for the upgrade); a user may
        // write into a group owned by one of its tokens
        CliRunner.Result b2 = user.run("backup", "-q", "--backup-type", "vm", "--backup-id", "300", "--backup-time",
                "1700000100", "disk.img:" + disk);
        assertEquals(0, b2.exit(), b2.all());
        // in a namespace-less second group, with the default time (now)
        CliRunner.Result b3 = token.run("backup", "-q", "--backup-id", "h1", "disk.img:" + disk);
        assertEquals(0, b3.exit(), b3.all());

        CliRunner.Result list = user.run("snapshot", "list");
        assertEquals(0, list.exit(), list.all());
        List<String> lines = list.out().lines().toList();
        assertTrue(lines.get(0).matches("snapshot\\s+size\\s+files\\s+protected"), list.out());
        assertEquals(2 + 3, lines.size(), list.out()); // header, rule, 3 snapshots
        assertTrue(list.out().contains("vm/300/" + BackupSnapshotRef.formatTime(1700000000)), list.out());
        assertTrue(list.out().contains("disk.img index.json"), list.out());
        CliRunner.Result group = token.run("snapshot", "list", "vm/300");
        assertEquals(2 + 2, group.out().lines().count(), group.out());

        // a group restores its latest snapshot
        Path out = tmp.resolve("latest.img");
        CliRunner.Result r = user.run("restore", "-q", "vm/300", "disk.img", out.toString());
        assertEquals(0, r.exit(), r.all());
        assertArrayEquals(img, Files.readAllBytes(out));
        CliRunner.Result none = user.run("restore", "-q", "vm/999", "disk.img", out.toString());
        assertEquals(1, none.exit());
        assertTrue(none.err().contains("no finished snapshot in group vm/999"), none.err());

        Map<String, String> bad = userEnv();
        bad.put("PBS_PASSWORD", "not-the-password");
        CliRunner.Result denied = new CliRunner(tmp.resolve("home"), bad).run("snapshot", "list");
        assertEquals(ExitCodes.DENIED, denied.exit(), denied.err()); // a refused login (401) exits 7: README.md, "Exit codes"
        assertTrue(denied.err().contains("login of root@pam") && denied.err().contains("401"), denied.err());

        // without --backup-time: now, or one second after the group's last snapshot if that is later
        long future = java.time.Instant.now().getEpochSecond() + 86_400;
        CliRunner.Result f1 = token.run("backup", "-q", "--backup-id", "later", "--backup-time", Long.toString(future),
                "disk.img:" + disk);
        assertEquals(0, f1.exit(), f1.all());
        CliRunner.Result f2 = token.run("backup", "-q", "--backup-id", "later", "disk.img:" + disk);
        assertEquals(0, f2.exit(), f2.all());
        CliRunner.Result later = token.run("snapshot", "list", "host/later");
        assertTrue(later.out().contains("host/later/" + BackupSnapshotRef.formatTime(future + 1)), later.all());
        server.awaitIdle();
    }
}
