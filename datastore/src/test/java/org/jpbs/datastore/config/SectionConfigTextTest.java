package org.jpbs.datastore.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.api.Test;

/** The lossless section-config document: parse then write is byte-identical; edits touch only their lines. */
class SectionConfigTextTest {
    static final String HAND_WRITTEN = """
            # datastores of this host
            # (edited by hand)

            datastore: store1
            \tpath /srv/pbs/store1
            \t# the disk is being replaced
            \tmaintenance-mode offline,message=disk%20swap
            \tx-unknown-key some value  with  spaces
            \tcomment   spaced   comment

            datastore: golden\r
            \tcomment golden test datastore\r
            \tgc-schedule mon..fri 02:00\r
            \tpath /srv/pbs/golden\r
            \tverify-new 1\r
            \r
            # trailing comment
            datastore: last
              path /srv/last
              flag""";

    @Test
    void parseThenWriteIsByteIdentical() {
        SectionConfigText t = SectionConfigText.parse(HAND_WRITTEN, "datastore.cfg");
        assertEquals(HAND_WRITTEN, t.text());
        assertEquals(List.of("store1", "golden", "last"), t.sections().stream().map(SectionConfigText.Section::id).toList());
        SectionConfigText.Section s1 = t.section("datastore", "store1").orElseThrow();
        assertEquals(List.of("path", "maintenance-mode", "x-unknown-key", "comment"), List.copyOf(s1.props().keySet()));
        assertEquals("some value  with  spaces", s1.get("x-unknown-key"));
        assertEquals("mon..fri 02:00", t.section("datastore", "golden").orElseThrow().get("gc-schedule"));
        assertEquals("", t.section("datastore", "last").orElseThrow().get("flag"));
        // the typed view accepts it, unknown keys included, and writes it back unchanged
        DatastoreConfigFile f = DatastoreConfigFile.parse(HAND_WRITTEN, "datastore.cfg");
        assertEquals(HAND_WRITTEN, f.text());
        assertEquals("some value  with  spaces", f.datastore("store1").orElseThrow().properties().get("x-unknown-key"));
    }

    @Test
    void theFilesPbsWroteRoundTrip() throws Exception {
        Path dir = SharedVectors.require("vectors/real-pbs/config");
        for (String name : new String[] {"datastore.cfg", "prune.cfg", "verification.cfg", "user.cfg"}) {
            String text = Files.readString(dir.resolve(name));
            assertEquals(text, SectionConfigText.parse(text, name).text(), name);
        }
        DatastoreConfigFile f = DatastoreConfigFile.parse(Files.readString(dir.resolve("datastore.cfg")), "datastore.cfg");
        assertEquals(List.of("store1", "golden"), f.datastores().stream().map(DatastoreConfig::name).toList());
    }

    @Test
    void changingAValueRewritesOnlyItsLine() {
        SectionConfigText t = SectionConfigText.parse(HAND_WRITTEN, "f");
        SectionConfigText u = t.withProperty("datastore", "store1", "comment", "new comment");
        assertEquals(HAND_WRITTEN.replace("\tcomment   spaced   comment", "\tcomment new comment"), u.text());
        // a CRLF line keeps its CRLF
        SectionConfigText g = t.withProperty("datastore", "golden", "gc-schedule", "daily");
        assertEquals(HAND_WRITTEN.replace("\tgc-schedule mon..fri 02:00\r\n", "\tgc-schedule daily\r\n"), g.text());
        assertSame(t, t.withProperty("datastore", "golden", "gc-schedule", "mon..fri 02:00"), "unchanged value");
    }

    @Test
    void addingAndRemovingProperties() {
        String pbs = "datastore: a\n\tcomment c\n\tpath /a\n\ndatastore: b\n\tpath /b\n";
        SectionConfigText t = SectionConfigText.parse(pbs, "f");
        assertEquals("datastore: a\n\tcomment c\n\tgc-schedule daily\n\tpath /a\n\ndatastore: b\n\tpath /b\n",
                t.withProperty("datastore", "a", "gc-schedule", "daily").text(), "inserted in sorted position");
        assertEquals("datastore: a\n\tcomment c\n\tpath /a\n\ndatastore: b\n\tpath /b\n\ttuning sync-level=file\n",
                t.withProperty("datastore", "b", "tuning", "sync-level=file").text(), "appended at the end");
        assertEquals("datastore: a\n\tpath /a\n\ndatastore: b\n\tpath /b\n",
                t.withProperty("datastore", "a", "comment", null).text());
        // a file without a final newline gets one before the new line
        assertEquals("datastore: x\n\tpath /x\n\tzz 1\n",
                SectionConfigText.parse("datastore: x\n\tpath /x", "f").withProperty("datastore", "x", "zz", "1").text());
    }

    @Test
    void addingAndRemovingSections() {
        String pbs = "# header comment\n\n# about a\ndatastore: a\n\tpath /a\n\ndatastore: b\n\tpath /b\n";
        SectionConfigText t = SectionConfigText.parse(pbs, "f");
        SectionConfigText added = t.withSection("datastore", "c", Map.of("path", "/c", "comment", "third"));
        assertEquals(pbs + "\ndatastore: c\n\tcomment third\n\tpath /c\n", added.text(), "keys sorted, blank line before");
        assertEquals(pbs, added.withoutSection("datastore", "c").text());
        assertEquals("# header comment\n\ndatastore: b\n\tpath /b\n", t.withoutSection("datastore", "a").text(),
                "its comment and one blank line go with it");
        assertEquals("# header comment\n\n# about a\ndatastore: a\n\tpath /a\n", t.withoutSection("datastore", "b").text());
        assertEquals("datastore: n\n\tpath /n\n", SectionConfigText.empty("f").withSection("datastore", "n",
                Map.of("path", "/n")).text());
    }

    @Test
    void errorsNameTheLine() {
        assertEquals("f line 2: property outside of a section",
                assertThrows(IllegalArgumentException.class, () -> SectionConfigText.parse("\n\tpath /x\n", "f")).getMessage());
        assertEquals("f line 3: duplicate property 'path'", assertThrows(IllegalArgumentException.class,
                () -> SectionConfigText.parse("datastore: a\n\tpath /x\n\tpath /y\n", "f")).getMessage());
        assertEquals("f line 4: duplicate section 'datastore: a'", assertThrows(IllegalArgumentException.class,
                () -> SectionConfigText.parse("datastore: a\n\tpath /x\n\ndatastore: a\n", "f")).getMessage());
        assertEquals("f line 1: expected '<type>: <id>'",
                assertThrows(IllegalArgumentException.class, () -> SectionConfigText.parse("garbage\n", "f")).getMessage());
        SectionConfigText t = SectionConfigText.parse("datastore: a\n\tpath /x\n", "f");
        assertThrows(IllegalArgumentException.class, () -> t.withProperty("datastore", "a", "comment", "two\nlines"));
        assertThrows(IllegalArgumentException.class, () -> t.withProperty("datastore", "nope", "comment", "x"));
        assertThrows(IllegalArgumentException.class, () -> t.withSection("datastore", "a", Map.of("path", "/y")));
    }
}
