package org.jpbs.core.pxar.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.jpbs.core.pxar.pattern.MatchEntry;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.api.Test;

/** {@code catalog dump} / {@code find} output for the real client's catalog, and Rust-style quoting. */
class CatalogDumpTest {
    private static CatalogReader realCatalog() throws Exception {
        Path chunk = SharedVectors.require(
                "vectors/real-client/dir-plain/chunks/2d246b43e1a9ac2b57d98549d4bc6218f8f587954407eacd859acdbdf176a578");
        return new CatalogReader(DataBlob.wrap(Files.readAllBytes(chunk), "catalog").decode("catalog", -1, null));
    }

    @Test
    void dumpListsTheCapturedTreeAsPbsPrintsIt() throws Exception {
        List<String> lines = new ArrayList<>();
        CatalogDump.dump(realCatalog(), ZoneOffset.UTC, lines::add);
        assertEquals(List.of(
                "d \"./root.pxar.didx\"",
                "f \"./root.pxar.didx/empty\" 0 2023-11-14T22:13:20Z",
                "f \"./root.pxar.didx/hello.txt\" 12 2023-11-14T22:13:20Z",
                "l \"./root.pxar.didx/link-to-dir\"",
                "l \"./root.pxar.didx/link-to-hello\"",
                "f \"./root.pxar.didx/random.bin\" 300000 2023-11-14T22:13:20Z",
                "f \"./root.pxar.didx/readme.md\" 29 2023-11-14T22:13:20Z",
                "d \"./root.pxar.didx/sub\"",
                "d \"./root.pxar.didx/sub/deeper\"",
                "f \"./root.pxar.didx/sub/deeper/nested.txt\" 7 2023-11-14T22:13:20Z",
                "f \"./root.pxar.didx/sub/numbers.txt\" 8893 2023-11-14T22:13:20Z"), lines);
    }

    @Test
    void findReportsIncludedPaths() throws Exception {
        List<String> found = new ArrayList<>();
        for (byte[] p : CatalogDump.find(realCatalog(), List.of(MatchEntry.parse(b("*.txt"), true, false),
                MatchEntry.parse(b("!deeper/"), true, false)))) {
            found.add(new String(p, StandardCharsets.UTF_8));
        }
        assertEquals(List.of("/root.pxar.didx/hello.txt", "/root.pxar.didx/sub/numbers.txt"), found);
    }

    @Test
    void quotesLikeRustDebug() {
        assertEquals("\"a b\"", CatalogDump.quote(b("a b")));
        assertEquals("\"tab\\tand\\\\backslash\\\"q\"", CatalogDump.quote(b("tab\tand\\backslash\"q")));
        assertEquals("\"äöü\"", CatalogDump.quote(b("äöü")));
        assertEquals("\"\\xFF\\xFEx\"", CatalogDump.quote(new byte[] {(byte) 0xff, (byte) 0xfe, 'x'}));
        assertEquals("\"\\" + "u{1}\"", CatalogDump.quote(new byte[] {1}));
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
