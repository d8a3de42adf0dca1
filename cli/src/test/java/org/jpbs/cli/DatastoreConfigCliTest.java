package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jpbs datastore create|list|show|update|remove} on {@code datastore.cfg}, and the
 * maintenance mode refusing local backups and restores ({@code docs/datastore-config.md}).
 */
class DatastoreConfigCliTest {
    static final long T = 1_700_000_000L;

    @TempDir(factory = FastTempDirs.class)
    Path tmp;
    Path config;
    Path repo;
    CliRunner cli;

    @BeforeEach
    void setUp() {
        config = tmp.resolve("config");
        repo = tmp.resolve("ds1");
        cli = new CliRunner(tmp.resolve("home"), Map.of("JPBS_CONFIG_DIR", config.toString()));
    }

    @AfterEach
    void deleteDatastores() throws Exception {
        FastTempDirs.deleteTree(repo);
    }

    CliRunner.Result ok(String... args) {
        CliRunner.Result r = cli.run(args);
        assertEquals(0, r.exit(), r.all());
        return r;
    }

    /** An invalid NAME is a usage error naming NAME (exit 2), and nothing is created or registered. */
    @Test
    void anInvalidNameIsAUsageError() throws Exception {
        Path target = tmp.resolve("bad-name");
        Path cfg = config.resolve("datastore.cfg");
        String before = Files.exists(cfg) ? Files.readString(cfg) : null;
        for (String name : new String[] {"ab", "_a b", "a/bc", "x".repeat(33)}) {
            CliRunner.Result r = cli.run("datastore", "create", name, target.toString());
            assertEquals(2, r.exit(), r.all());
            assertEquals("jpbs: error: NAME: invalid datastore name '" + name + "' (3..32 characters: letters, digits, '_', "
                    + "and after the first also '.' and '-') (see 'jpbs datastore create --help')\n", r.err());
        }
        assertFalse(Files.exists(target), "nothing created");
        assertEquals(before, Files.exists(cfg) ? Files.readString(cfg) : null, "datastore.cfg unchanged");
    }

    /**
     * PBS refuses overlapping datastore paths (its text: {@code nested datastores not allowed:
     * '<other>' already in "<its path>"}); a usage error here, and nothing is created.
     */
    @Test
    void aDatastoreInsideAnotherOrAroundAnotherIsRefused() throws Exception {
        ok("datastore", "create", "outer1", repo.toString(), "--sync-level", "none");
        Path cfg = config.resolve("datastore.cfg");
        String before = Files.readString(cfg);
        Path inner = repo.resolve("sub/inner");
        CliRunner.Result in = cli.run("datastore", "create", "inner1", inner.toString());
        assertEquals(2, in.exit(), in.all());
        assertEquals("jpbs: error: PATH: nested datastores not allowed: 'outer1' already in \"" + repo
                + "\" (see 'jpbs datastore create --help')\n", in.err());
        assertFalse(Files.exists(repo.resolve("sub")), "nothing created");
        CliRunner.Result around = cli.run("datastore", "create", "around1", tmp.toString());
        assertEquals(2, around.exit(), around.all());
        assertTrue(around.err().contains("nested datastores not allowed: 'outer1' already in \"" + repo + "\""),
                around.err());
        CliRunner.Result noName = cli.run("datastore", "create", inner.toString()); // without NAME: not registered, same rule
        assertEquals(2, noName.exit(), noName.all());
        assertTrue(noName.err().contains("PATH: nested datastores not allowed: 'outer1' already in"), noName.err());
        // inside a datastore nobody registered (created by path): refused too, with jpbs's own text
        Path loose = tmp.resolve("loose");
        ok("datastore", "create", loose.toString(), "--sync-level", "none");
        try {
            for (String[] args : new String[][] {{loose.resolve("in").toString()}, {"named1", loose.resolve("in").toString()}}) {
                CliRunner.Result r = cli.run(java.util.stream.Stream.concat(java.util.stream.Stream.of("datastore", "create"),
                        java.util.Arrays.stream(args)).toArray(String[]::new));
                assertEquals(2, r.exit(), r.all());
                assertTrue(r.err().contains("nested datastores not allowed: " + loose.resolve("in") + " is inside the datastore "
                        + loose), r.err());
            }
            assertFalse(Files.exists(loose.resolve("in")));
        } finally {
            FastTempDirs.deleteTree(loose);
        }
        CliRunner.Result reuse = cli.run("datastore", "create", "again1", repo.resolve("x/..").toString(), "--reuse");
        assertEquals(2, reuse.exit(), reuse.all());
        assertEquals(before, Files.readString(cfg), "nothing registered");
        // a sibling whose name only starts like it is no nesting
        Path sibling = tmp.resolve(repo.getFileName() + "-2");
        try {
            ok("datastore", "create", "sibling1", sibling.toString(), "--sync-level", "none");
        } finally {
            FastTempDirs.deleteTree(sibling);
        }
    }

    @Test
    void createListShowUpdateRemove() throws Exception {
        ok("datastore", "create", "store1", repo.toString(), "--comment", "first store", "--gc-schedule", "daily",
                "--tuning", "chunk-order=none", "--sync-level", "none", "--keep-daily", "7");
        assertTrue(Files.isDirectory(repo.resolve(".chunks/ffff")));
        Path cfg = config.resolve("datastore.cfg");
        assertEquals("datastore: store1\n\tcomment first store\n\tgc-schedule daily\n\tkeep-daily 7\n\tpath " + repo
                + "\n\ttuning chunk-order=none,sync-level=none\n", Files.readString(cfg), "as PBS writes it: keys sorted, TABs");

        CliRunner.Result dup = cli.run("datastore", "create", "store1", tmp.resolve("other").toString());
        assertEquals(1, dup.exit());
        assertEquals("jpbs: error: datastore 'store1' already exists\n", dup.err());
        assertFalse(Files.exists(tmp.resolve("other")), "nothing created");
        CliRunner.Result bad = cli.run("datastore", "create", "store2", tmp.resolve("other").toString(), "--tuning",
                "gc-atime-cutoff=0");
        assertEquals(1, bad.exit());
        assertEquals("jpbs: error: datastore 'store2': tuning: gc-atime-cutoff: value must have a minimum value of 1 (got 0)\n", bad.err());
        assertFalse(Files.exists(tmp.resolve("other")), "nothing created");

        // a hand-written comment and an unknown key survive updates
        Files.writeString(cfg, "# managed by hand too\n\n" + Files.readString(cfg).replace("\tpath", "\tx-custom yes\n\tpath"));
        String list = ok("datastore", "list").out();
        assertTrue(list.startsWith("NAME"), list);
        assertTrue(list.contains("store1  " + repo + "  -            first store"), list);
        ok("datastore", "update", "store1", "--maintenance-mode", "read-only,message=moving disks", "--delete", "keep-daily");
        assertEquals("# managed by hand too\n\ndatastore: store1\n\tcomment first store\n\tgc-schedule daily\n"
                + "\tmaintenance-mode read-only,message=moving disks\n\tx-custom yes\n\tpath " + repo
                + "\n\ttuning chunk-order=none,sync-level=none\n", Files.readString(cfg));
        JsonNode shown = new ObjectMapper().readTree(ok("datastore", "show", "store1", "--output-format", "json").out());
        assertEquals("read-only,message=moving disks", shown.get("maintenance-mode").asText());
        assertEquals("yes", shown.get("x-custom").asText());
        String text = ok("datastore", "show", "store1").out();
        assertTrue(text.contains("effective tuning: chunk-order=none, sync-level=none, gc-atime-cutoff=1445, "
                + "gc-atime-safety-check=true, gc-cache-capacity=1048576, gc-chunk-metadata-prefetch=false"), text);

        String before = Files.readString(cfg);
        CliRunner.Result badMode = cli.run("datastore", "update", "store1", "--maintenance-mode", "sleeping");
        assertEquals(1, badMode.exit());
        assertTrue(badMode.err().contains("maintenance-mode: unknown type 'sleeping'"), badMode.err());
        assertEquals(before, Files.readString(cfg), "an invalid value changes nothing");
        assertEquals(1, cli.run("datastore", "update", "nope", "--comment", "x").exit());

        ok("datastore", "remove", "store1");
        assertEquals("# managed by hand too\n", Files.readString(cfg));
        assertTrue(Files.isDirectory(repo.resolve(".chunks")), "data kept");
        ok("datastore", "create", "store1", repo.toString(), "--reuse");
        assertTrue(ok("datastore", "list", "--output-format", "json").out().contains("\"name\":\"store1\""));
    }

    @Test
    void maintenanceModeRefusesLocalBackupAndRestore() throws Exception {
        ok("datastore", "create", "store1", repo.toString(), "--sync-level", "none");
        byte[] image = new byte[3 * 1024 * 1024 + 17];
        new Random(3).nextBytes(image);
        Path img = tmp.resolve("disk.img");
        Files.write(img, image);
        String[] backup = {"backup", "-q", "--repository", repo.toString(), "--backup-type", "vm", "--backup-id", "100",
            "--backup-time", Long.toString(T), "disk.img:" + img};
        ok(backup);
        String snap = "vm/100/2023-11-14T22:13:20Z";

        ok("datastore", "update", "store1", "--maintenance-mode", "read-only,message=moving disks");
        backup[9] = Long.toString(T + 60);
        CliRunner.Result refused = cli.run(backup);
        assertEquals(1, refused.exit());
        assertEquals("jpbs: error: datastore 'store1' is in read-only maintenance mode: moving disks\n", refused.err());
        assertEquals(1, CliRunner.snapshots(repo).size(), "nothing written");
        Path out = tmp.resolve("restored.img");
        ok("restore", "-q", "--repository", repo.toString(), snap, "disk.img", out.toString());
        assertEquals(image.length, Files.size(out));
        ok("snapshot", "list", "--repository", repo.toString());

        ok("datastore", "update", "store1", "--maintenance-mode", "offline,message=disk swap");
        String offline = "jpbs: error: datastore 'store1' is in offline maintenance mode: disk swap\n";
        CliRunner.Result r = cli.run("restore", "-q", "--repository", repo.toString(), snap, "disk.img",
                tmp.resolve("again.img").toString());
        assertEquals(1, r.exit());
        assertEquals(offline, r.err());
        assertFalse(Files.exists(tmp.resolve("again.img")));
        assertEquals(offline, cli.run("snapshot", "list", "--repository", repo.toString()).err());
        assertEquals(offline, cli.run(backup).err());

        ok("datastore", "update", "store1", "--delete", "maintenance-mode");
        ok(backup);
        assertEquals(2, CliRunner.snapshots(repo).size());
    }
}
