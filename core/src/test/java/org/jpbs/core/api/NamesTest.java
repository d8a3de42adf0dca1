package org.jpbs.core.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class NamesTest {
    private static void rejects(Runnable r, String mustContain) {
        var e = assertThrows(IllegalArgumentException.class, r::run);
        assertTrue(e.getMessage().contains(mustContain), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), "one line: " + e.getMessage());
    }

    @Test
    void backupType() {
        assertEquals(BackupType.VM, BackupType.parse("vm"));
        assertEquals(BackupType.CT, BackupType.parse("ct"));
        assertEquals(BackupType.HOST, BackupType.parse("host"));
        assertEquals("host", BackupType.HOST.text());
        var e = assertThrows(IllegalArgumentException.class, () -> BackupType.parse("xx"));
        assertEquals("unknown backup type 'xx' (expected vm, ct or host)", e.getMessage());
        rejects(() -> BackupType.parse("VM"), "'VM'");
    }

    @Test
    void namespaces() {
        assertTrue(BackupNamespace.parse("").isRoot());
        assertEquals(BackupNamespace.ROOT, BackupNamespace.parse(""));
        assertEquals("", BackupNamespace.ROOT.relativePath());
        assertEquals("", BackupNamespace.ROOT.toString());
        BackupNamespace ns = BackupNamespace.parse("a/b_1/c.d-e");
        assertEquals(List.of("a", "b_1", "c.d-e"), ns.components());
        assertEquals("ns/a/ns/b_1/ns/c.d-e", ns.relativePath());
        assertEquals("a/b_1/c.d-e", ns.toString());
        assertEquals(ns, BackupNamespace.parse("a/b_1").child("c.d-e"));
        assertEquals(BackupNamespace.parse("a"), BackupNamespace.ROOT.child("a"));
        assertEquals(BackupNamespace.parse("a/b_1"), ns.parent());
        assertNotEquals(ns, ns.parent());
        assertEquals(7, BackupNamespace.parse("1/2/3/4/5/6/7").depth());
        rejects(() -> BackupNamespace.parse("1/2/3/4/5/6/7/8"), "deeper than 7");
        rejects(() -> BackupNamespace.parse("1/2/3/4/5/6/7").child("8"), "deeper than 7");
        rejects(() -> BackupNamespace.parse("a//b"), "'a//b'");
        rejects(() -> BackupNamespace.parse("/a"), "empty component");
        rejects(() -> BackupNamespace.parse("a/"), "empty component");
        rejects(() -> BackupNamespace.parse("a/.hidden"), "'.hidden'");
        rejects(() -> BackupNamespace.parse("a/-x"), "'-x'");
        rejects(() -> BackupNamespace.parse("a/b c"), "'b c'");
        rejects(() -> BackupNamespace.parse("a/.."), "'..'");
        rejects(() -> BackupNamespace.parse("x".repeat(257)), "longer than 256");
        rejects(() -> BackupNamespace.ROOT.child("a/b"), "'a/b'");
    }

    @Test
    void groups() {
        BackupNamespace ns = BackupNamespace.parse("prod");
        BackupGroupRef g = BackupGroupRef.parse(ns, "vm/100");
        assertEquals(BackupType.VM, g.type());
        assertEquals("100", g.id());
        assertEquals("vm/100", g.toString());
        assertEquals("ns/prod/vm/100", g.relativePath());
        assertEquals("host/my_host.example-1", BackupGroupRef.parse(BackupNamespace.ROOT, "host/my_host.example-1").relativePath());
        rejects(() -> BackupGroupRef.parse(ns, "vm"), "'vm'");
        rejects(() -> BackupGroupRef.parse(ns, "vm/100/x"), "'vm/100/x'");
        rejects(() -> BackupGroupRef.parse(ns, "xx/100"), "unknown backup type 'xx'");
        rejects(() -> BackupGroupRef.parse(ns, "vm/"), "backup id ''");
        rejects(() -> BackupGroupRef.parse(ns, "vm/.."), "'..'");
        rejects(() -> new BackupGroupRef(ns, BackupType.CT, "a/b"), "'a/b'");
    }

    @Test
    void snapshotTimes() {
        assertEquals("2023-11-14T22:13:20Z", BackupSnapshotRef.formatTime(1700000000L));
        assertEquals("1970-01-01T00:00:00Z", BackupSnapshotRef.formatTime(0));
        assertEquals(1700000000L, BackupSnapshotRef.parseTime("2023-11-14T22:13:20Z"));
        assertEquals(951782400L, BackupSnapshotRef.parseTime("2000-02-29T00:00:00Z"));
        rejects(() -> BackupSnapshotRef.parseTime("2023-11-14T22:13:20"), "'2023-11-14T22:13:20'");
        rejects(() -> BackupSnapshotRef.parseTime("2023-11-14 22:13:20Z"), "invalid snapshot time");
        rejects(() -> BackupSnapshotRef.parseTime("2023-11-14T22:13:20+00:00"), "invalid snapshot time");
        rejects(() -> BackupSnapshotRef.parseTime("2023-13-14T22:13:20Z"), "'2023-13-14T22:13:20Z'");
        rejects(() -> BackupSnapshotRef.parseTime("2023-02-30T22:13:20Z"), "'2023-02-30T22:13:20Z'");
        rejects(() -> BackupSnapshotRef.parseTime("2023-11-14T24:00:00Z"), "invalid snapshot time");
        rejects(() -> BackupSnapshotRef.parseTime("2023-11-14T22:13:20.5Z"), "invalid snapshot time");
        rejects(() -> BackupSnapshotRef.formatTime(253402300800L), "outside");
    }

    @Test
    void snapshots() {
        BackupNamespace ns = BackupNamespace.parse("a/b");
        BackupSnapshotRef s = BackupSnapshotRef.parse(ns, "vm/100/2023-11-14T22:13:20Z");
        assertEquals(1700000000L, s.time());
        assertEquals("vm/100/2023-11-14T22:13:20Z", s.toString());
        assertEquals("2023-11-14T22:13:20Z", s.timeString());
        assertEquals("ns/a/ns/b/vm/100/2023-11-14T22:13:20Z", s.relativePath());
        assertEquals(ns, s.group().ns());
        assertEquals(s, BackupSnapshotRef.parse(ns, s.toString()));
        rejects(() -> BackupSnapshotRef.parse(ns, "vm/100"), "'vm/100'");
        rejects(() -> BackupSnapshotRef.parse(ns, "2023-11-14T22:13:20Z"), "'2023-11-14T22:13:20Z'");
        rejects(() -> BackupSnapshotRef.parse(ns, "vm/100/2023-11-14"), "'2023-11-14'");
    }

    @Test
    void archiveNames() {
        assertEquals("disk.img.fidx", ArchiveName.checkServerName("disk.img.fidx"));
        assertEquals("root.pxar.didx", ArchiveName.checkServerName("root.pxar.didx"));
        assertEquals("qemu-server.conf.blob", ArchiveName.checkServerName("qemu-server.conf.blob"));
        rejects(() -> ArchiveName.checkServerName(""), "empty");
        rejects(() -> ArchiveName.checkServerName("a/b.blob"), "'a/b.blob'");
        rejects(() -> ArchiveName.checkServerName("../x.blob"), "'../x.blob'");
        rejects(() -> ArchiveName.checkServerName(".."), "'..'");
        rejects(() -> ArchiveName.checkServerName("."), "'.'");
        rejects(() -> ArchiveName.checkServerName(".x.blob"), "'.x.blob'");
        rejects(() -> ArchiveName.checkServerName("x\0.blob"), "NUL");
        rejects(() -> ArchiveName.checkServerName("x.img"), "'x.img'");
        rejects(() -> ArchiveName.checkServerName(".blob"), "'.blob'");

        assertEquals("x.img.fidx", ArchiveName.toServerName("x.img"));
        assertEquals("x.pxar.didx", ArchiveName.toServerName("x.pxar"));
        assertEquals("catalog.pcat1.didx", ArchiveName.toServerName("catalog.pcat1"), "the catalog is a dynamic index");
        assertEquals("x.didx", ArchiveName.toServerName("x.didx"));
        assertEquals("x.fidx", ArchiveName.toServerName("x.fidx"));
        assertEquals("x.blob", ArchiveName.toServerName("x.blob"));
        assertEquals("x.conf.blob", ArchiveName.toServerName("x.conf"));
        assertEquals("x.blob", ArchiveName.toServerName("x"));
        rejects(() -> ArchiveName.toServerName("a/x.img"), "'a/x.img.fidx'");
        rejects(() -> ArchiveName.toServerName(""), "empty");
        rejects(() -> ArchiveName.toServerName(".."), "'...blob'");
    }
}
