package org.jpbs.core.pxar.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jpbs.core.pxar.PxarAccessor;
import org.jpbs.core.pxar.ReadAt;
import org.jpbs.core.testing.SampleTree;
import org.junit.jupiter.api.Test;

/**
 * Directory listings as PBS's content API gives them: from the catalog (the archives at the
 * root, paths without the leading slash below it) and from the archive itself (absolute
 * paths), with PBS's errors for missing paths and non-directories.
 */
class DirectoryListingTest {
    private static String show(List<DirectoryListing.Item> items) {
        return String.join("|", items.stream().map(i -> new String(i.path(), StandardCharsets.UTF_8) + " " + i.type()
                + (i.isFile() ? " " + i.size() + " " + i.mtime() : "") + (i.leaf() ? "" : " +")).toList());
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void fromTheCatalogAsPbs() throws Exception {
        CatalogReader cat = new CatalogReader(new SampleTree(1, 2).catalog);
        assertEquals("/root.pxar.didx d +", show(DirectoryListing.fromCatalog(cat, b("/"))));
        assertEquals("root.pxar.didx/a.txt f 5 1700000000|root.pxar.didx/big.bin f 300000 1700000000"
                + "|root.pxar.didx/dir d +|root.pxar.didx/fifo p|root.pxar.didx/many d +",
                show(DirectoryListing.fromCatalog(cat, b("/root.pxar.didx"))));
        assertEquals("root.pxar.didx/dir/hard h|root.pxar.didx/dir/link l|root.pxar.didx/dir/sub d +",
                show(DirectoryListing.fromCatalog(cat, b("root.pxar.didx/dir"))));
        assertEquals("path \"/root.pxar.didx/nope\" not found in catalog", assertThrows(CatalogLookupException.class,
                () -> DirectoryListing.fromCatalog(cat, b("/root.pxar.didx/nope"))).getMessage());
        assertEquals("parent is not a directory - internal error", assertThrows(CatalogLookupException.class,
                () -> DirectoryListing.fromCatalog(cat, b("/root.pxar.didx/a.txt"))).getMessage());
        assertThrows(CatalogLookupException.class, () -> DirectoryListing.fromCatalog(cat, b("/root.pxar.didx/a.txt/x")));
    }

    @Test
    void fromTheArchiveAsPbsListsAMetadataArchive() throws Exception {
        PxarAccessor acc = new PxarAccessor(ReadAt.of(new SampleTree(1, 2).archive));
        assertEquals("/dir/hard h|/dir/link l|/dir/sub d +", show(DirectoryListing.fromArchive(acc, b("/dir"))));
        assertEquals("/a.txt f 5 1700000000|/big.bin f 300000 1700000000|/dir d +|/fifo p|/many d +",
                show(DirectoryListing.fromArchive(acc, b("/"))));
        assertEquals("lookup failed - error opening '\"/nope\"'", assertThrows(CatalogLookupException.class,
                () -> DirectoryListing.fromArchive(acc, b("/nope"))).getMessage());
        assertEquals("expected directory entry, got entry kind 'File'", assertThrows(CatalogLookupException.class,
                () -> DirectoryListing.fromArchive(acc, b("/a.txt"))).getMessage());
    }
}
