package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;
import org.jpbs.vma.stream.Compression;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a new user tripped over, each fixed (issue 13, "Fix what a new user tripped over"). */
class NewUserFixesTest {
    @TempDir
    Path tmp;

    private CliRunner cli() {
        return new CliRunner(tmp.resolve("home"), Map.of());
    }

    @Test
    void datastoreCreateWithOneBareNameIsAUsageErrorAndCreatesNothing() {
        String name = "store-" + tmp.getFileName();
        CliRunner.Result r = cli().run("datastore", "create", name);
        assertEquals(2, r.exit(), r.all());
        assertTrue(r.err().contains("'" + name + "' is a name, not a path: give NAME PATH"), r.err());
        assertFalse(Files.exists(Path.of(name)), "nothing below the working directory");
        // written as a path it still works
        CliRunner.Result ok = cli().run("datastore", "create", tmp.resolve("s1").toString());
        assertEquals(0, ok.exit(), ok.all());
        assertTrue(Files.isDirectory(tmp.resolve("s1/.chunks")));
    }

    @Test
    void theDefaultDatastoreIsAnnouncedOnceWhereItIsCreated() {
        CliRunner.Result first = cli().run("snapshot", "list");
        assertEquals(0, first.exit(), first.all());
        Path def = tmp.resolve("home/.local/share/jpbs/datastore");
        assertTrue(first.err().contains("created the default datastore " + def), first.err());
        CliRunner.Result second = cli().run("snapshot", "list");
        assertEquals(0, second.exit(), second.all());
        assertFalse(second.err().contains("created"), second.err());
    }

    @Test
    void topHelpFooterIsWrappedAtWordsOnly() {
        CliRunner.Result r = cli().run("--help");
        assertEquals(0, r.exit(), r.all());
        String footer = r.out().substring(r.out().indexOf("Repository:"));
        List<String> lines = footer.lines().toList();
        for (int i = 0; i + 1 < lines.size(); i++) {
            String l = lines.get(i);
            assertTrue(l.length() <= 80, l);
            // inside a paragraph a line is broken only where the next word would not fit
            String next = lines.get(i + 1);
            if (!next.isEmpty() && !l.isEmpty()) {
                String word = next.strip().split(" ")[0];
                assertTrue(l.length() + 1 + word.length() > 78, "broken early: '" + l + "' / '" + next + "'\n" + footer);
            }
        }
        assertTrue(footer.replace("\n", " ").contains("else $PBS_REPOSITORY, else ~/.local/share/jpbs/datastore"), footer);
    }

    @Test
    void pruneHelpListsTheKeepOptionsInOrderEachSayingWhatItKeeps() {
        CliRunner.Result r = cli().run("prune", "--help");
        String out = r.out();
        int last = out.indexOf("--keep-last=N  ");
        int hourly = out.indexOf("--keep-hourly=N  ");
        int daily = out.indexOf("--keep-daily=N  ");
        int weekly = out.indexOf("--keep-weekly=N  ");
        int monthly = out.indexOf("--keep-monthly=N  ");
        int yearly = out.indexOf("--keep-yearly=N  ");
        assertTrue(0 < last && last < hourly && hourly < daily && daily < weekly && weekly < monthly
                && monthly < yearly, out);
        assertFalse(out.contains("... of the last"), out);
    }

    @Test
    void optionHelpIsWrappedAtSpacesNotInsidePathsOrRepositories() {
        String help = cli().run("restore", "--help").out();
        assertTrue(help.contains("root@pam@localhost:8007:store1"), help);
        assertTrue(help.contains("~/.config/proxmox-backup/encryption-key.json"), help);
        // every command's help fits 80 columns
        for (String[] cmd : List.of(new String[] {"backup"}, new String[] {"restore"}, new String[] {"prune"},
                new String[] {"verify"}, new String[] {"gc"}, new String[] {"snapshot", "upload-log"},
                new String[] {"namespace", "list"}, new String[] {"task", "list"}, new String[] {"benchmark"},
                new String[] {"serve"}, new String[] {"vma", "import"}, new String[] {"datastore", "create"})) {
            String[] args = java.util.Arrays.copyOf(cmd, cmd.length + 1);
            args[cmd.length] = "--help";
            CliRunner.Result r = cli().run(args);
            assertEquals(0, r.exit(), String.join(" ", cmd) + r.all());
            for (String line : r.out().lines().toList()) {
                assertTrue(line.length() <= 80, String.join(" ", cmd) + ": " + line);
            }
        }
    }

    @Test
    void localGcPruneAndVerifyPrintJsonWithTheApiFieldNames() throws Exception {
        Path store = tmp.resolve("s3");
        CliRunner c = new CliRunner(tmp.resolve("home"), Map.of("PBS_REPOSITORY", store.toString()));
        Files.write(tmp.resolve("d.img"), new byte[4096]);
        for (String t : List.of("1700000000", "1700003600")) {
            CliRunner.Result b = c.run("backup", "--backup-type", "vm", "--backup-id", "7", "--backup-time", t,
                    "d.img:" + tmp.resolve("d.img"));
            assertEquals(0, b.exit(), b.all());
        }
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        CliRunner.Result p = c.run("prune", "vm/7", "--keep-last", "1", "--dry-run", "--output-format", "json");
        assertEquals(0, p.exit(), p.all());
        var arr = json.readTree(p.out());
        assertEquals(2, arr.size(), p.out());
        for (var e : arr) {
            java.util.Set<String> names = new java.util.TreeSet<>();
            e.fieldNames().forEachRemaining(names::add);
            assertEquals(java.util.Set.of("backup-type", "backup-id", "backup-time", "keep", "protected"), names);
            assertEquals(e.get("backup-time").asLong() == 1700003600L, e.get("keep").asBoolean());
        }
        CliRunner.Result v = c.run("verify", "--output-format", "json");
        assertEquals(0, v.exit(), v.all());
        assertEquals("OK", json.readTree(v.out()).get("exitstatus").asText(), v.out());
        assertTrue(v.err().contains(": ok"), v.err());
        CliRunner.Result g = c.run("gc", "--output-format", "json");
        assertEquals(0, g.exit(), g.all());
        assertTrue(json.readTree(g.out()).has("disk-chunks"), g.out());
        assertEquals(2, c.run("gc", "--output-format", "xml").exit());
    }

    @Test
    void serveSaysItIsCreatingTheCertificateOnlyOnTheFirstStart() throws IOException {
        Path config = tmp.resolve("config");
        assertTrue(org.jpbs.cli.admin.ServeCommand.firstStartNotice(config).orElseThrow()
                .contains("creating the TLS certificate"));
        org.jpbs.server.tls.ServerCertificate.loadOrCreate(config);
        assertTrue(org.jpbs.cli.admin.ServeCommand.firstStartNotice(config).isEmpty());
    }

    @Test
    void restoreHelpOffersNoBackupOnlyOptions() {
        CliRunner.Result r = cli().run("restore", "--help");
        assertEquals(0, r.exit());
        assertFalse(r.out().contains("--master-pubkey"), r.out());
        assertTrue(r.out().contains("--keyfile"), r.out());
        assertTrue(cli().run("backup", "--help").out().contains("--master-pubkey-file"));
    }

    @Test
    void localOnlyCommandsGivenAServerAreUsageErrors() {
        CliRunner c = new CliRunner(tmp.resolve("home"), Map.of("PBS_REPOSITORY", "root@pam@127.0.0.1:1:store1"));
        CliRunner.Result vma = c.run("vma", "import", tmp.resolve("x.vma").toString());
        assertEquals(2, vma.exit(), vma.all());
        assertTrue(vma.err().contains("works on a local datastore only"), vma.err());
    }

    @Test
    void jvmSettingsGiveOneLineIsoLogsAndANettyMachineId() {
        Main.configureJvm();
        assertTrue(System.getProperty("io.netty.machineId").matches("([0-9a-f]{2}:){5}[0-9a-f]{2}"));
        LogRecord rec = new LogRecord(Level.WARNING, "connection closed");
        rec.setLoggerName("org.jpbs.server.X");
        String line = new SimpleFormatter().format(rec);
        assertTrue(line.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}[+-]\\d{4} WARNING org\\.jpbs\\.server\\.X: "
                + "connection closed\\R"), line);
        assertEquals(1, line.lines().count());
        assertEquals(Level.SEVERE, java.util.logging.Logger.getLogger("io.netty.util.NetUtilInitializations").getLevel());
        // no "SLF4J(W): No SLF4J providers were found." (3 lines) on every command talking to a server
        assertEquals("ERROR", System.getProperty("slf4j.internal.verbosity"));
    }

    @Test
    void theOutputFormatDefaultsToProxmoxOutputFormatAndABadValueNamesTheVariable() {
        CliRunner c = new CliRunner(tmp.resolve("home"), Map.of("PBS_REPOSITORY", tmp.resolve("s2").toString(),
                "PROXMOX_OUTPUT_FORMAT", "json"));
        assertEquals(0, c.run("datastore", "create", tmp.resolve("s2").toString()).exit());
        CliRunner.Result r = c.run("snapshot", "list");
        assertEquals(0, r.exit(), r.all());
        assertEquals("[]\n", r.out());
        CliRunner.Result bad = new CliRunner(tmp.resolve("home"), Map.of("PBS_REPOSITORY", tmp.resolve("s2").toString(),
                "PROXMOX_OUTPUT_FORMAT", "xml")).run("snapshot", "list");
        assertEquals(2, bad.exit(), bad.all());
        assertTrue(bad.err().contains("PROXMOX_OUTPUT_FORMAT: unknown format 'xml'"), bad.err());
    }

    @Test
    void aTruncatedCompressedArchiveNamesTheFile() throws IOException {
        byte[] plain = new byte[1 << 20];
        new java.util.Random(1).nextBytes(plain);
        for (Compression c : List.of(Compression.ZSTD, Compression.GZIP)) {
            java.io.ByteArrayOutputStream bo = new java.io.ByteArrayOutputStream();
            try (var out = c.encoding(bo, 0)) {
                out.write("VMA\0".getBytes());
                out.write(plain);
            }
            byte[] all = bo.toByteArray();
            byte[] cut = java.util.Arrays.copyOf(all, all.length / 2);
            try (InputStream in = Compression.openDecoding(new ByteArrayInputStream(cut), "/srv/dump/vzdump-qemu-100.vma"
                    + c.extension())) {
                IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> in.readAllBytes());
                assertTrue(e.getMessage().startsWith("/srv/dump/vzdump-qemu-100.vma" + c.extension()
                        + ": truncated or corrupt"), c + ": " + e.getMessage());
            }
        }
    }
}
