package org.jpbs.client.pxar.shell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.jpbs.core.ChunkSource;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.chunker.ChunkingOutputStream;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.DynamicIndex;
import org.jpbs.core.index.DynamicIndexBuilder;
import org.jpbs.core.pxar.IndexReadAt;
import org.jpbs.core.pxar.PxarAccessor;
import org.jpbs.core.pxar.catalog.CatalogReader;
import org.jpbs.core.testing.SampleTree;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog shell driven by piped commands: navigation, find, stat, selection, and restores
 * that read only the chunks they need (counted at the chunk source) from an archive of about
 * 100 chunks.
 */
class CatalogShellTest {
    static SampleTree tree;
    static DynamicIndex index;
    static final Map<Digest, byte[]> CHUNKS = new HashMap<>();
    static final AtomicInteger READS = new AtomicInteger();
    @TempDir
    Path tmp;

    static final ChunkSource SOURCE = new ChunkSource() {
        @Override
        public byte[] readChunk(Digest digest, int expectedSize, CryptConfig crypt) {
            READS.incrementAndGet();
            return CHUNKS.get(digest).clone();
        }
    };

    @BeforeAll
    static void build() throws IOException {
        tree = new SampleTree(5, 3000);
        DynamicIndexBuilder b = new DynamicIndexBuilder();
        try (ChunkingOutputStream out = ChunkingOutputStream.buzhash(64 * 1024, (buf, len, end) -> {
            byte[] c = Arrays.copyOf(buf, len);
            Digest d = EncodedChunk.digest(c, 0, len, null);
            CHUNKS.put(d, c);
            b.append(end, d);
        })) {
            out.write(tree.archive);
        }
        index = b.build(UUID.randomUUID(), 1_700_000_000L);
    }

    /** Runs the commands; returns stdout and stderr. */
    static String[] shell(String commands) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PxarAccessor acc = new PxarAccessor(new IndexReadAt(index, SOURCE, null, "root.pxar.didx", 64));
        CatalogShell s = new CatalogShell(new CatalogReader(tree.catalog), "root.pxar.didx", acc, null, ZoneOffset.UTC,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        s.run(new BufferedReader(new StringReader(commands)), false);
        return new String[] {out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void navigatesTheCatalogAsThePbsShell() throws Exception {
        String[] r = shell("pwd\nls\ncd dir\npwd\nls\nls sub\ncd sub\npwd\ncd ..\ncd /\npwd\ncd a.txt\ncd nope\n"
                + "ls dir/link\nstat a.txt\nstat dir/link\nfind *.txt\nbogus\nexit\nls\n");
        assertEquals(String.join("\n", "\"/\"", "a.txt", "big.bin", "dir", "fifo", "many", "\"/dir\"", "hard", "link",
                "sub", "deep.txt", "\"/dir/sub\"", "\"/\"", "link",
                "  File: /a.txt", "  Size: 5             Type: file", "Access: (644/-rw-r--r--  )  Uid: 1000  Gid: 1000 ",
                "Modify: 2023-11-14 22:13:20",
                "  File: /dir/link -> \"../a.txt\"", "  Size: 0             Type: symlink",
                "Access: (777/lrwxrwxrwx  )  Uid: 1000  Gid: 1000 ", "Modify: 2023-11-14 22:13:20",
                "/a.txt", "/dir/sub/deep.txt", ""), r[0]);
        assertEquals(String.join("\n", "Error: not a directory", "Error: no such file or directory: \"nope\"",
                "Error: unknown command 'bogus' (try 'help')", ""), r[1]);
    }

    @Test
    void selectsAndRestoresOnlyWhatIsSelected() throws Exception {
        Path target = tmp.resolve("t");
        READS.set(0);
        String[] r = shell("select many/f01234\nselect /many/f01234\nselect dir/link/../sub\nlist-selected\n"
                + "list-selected --patterns\ndeselect dir/sub\nrestore-selected " + target + "\n");
        assertEquals(String.join("\n", "added path: \"/many/f01234\"", "path already selected: \"/many/f01234\"",
                "added path: \"/dir/sub\"", "/dir/sub", "/many/f01234", "\"/many/f01234\"", "\"/dir/sub\"",
                "removed path from selection: \"/dir/sub\"", ""), r[0]);
        assertEquals("", r[1]);
        assertArrayEquals(tree.many(1234), Files.readAllBytes(target.resolve("many/f01234")));
        try (var s = Files.list(target.resolve("many"))) {
            assertEquals(1, s.count());
        }
        assertFalse(Files.exists(target.resolve("dir")));
        assertFalse(Files.exists(target.resolve("big.bin")));
        assertTrue(READS.get() <= 8, READS.get() + " chunks read to restore one file of " + index.chunkCount());
    }

    @Test
    void restoresWithAPatternAndWhole() throws Exception {
        Path part = tmp.resolve("part");
        Path whole = tmp.resolve("whole");
        String[] r = shell("restore " + part + " /dir\nrestore " + whole + "\nrestore-selected " + tmp.resolve("x") + "\n");
        // the hardlink's file (/a.txt) is not under /dir: reported, not restored
        assertEquals("warning: /dir/hard: hardlink target /a.txt was not restored\nError: no entries selected\n", r[1]);
        assertEquals("deep", Files.readString(part.resolve("dir/sub/deep.txt")));
        assertFalse(Files.exists(part.resolve("dir/hard")));
        assertFalse(Files.exists(part.resolve("a.txt")));
        assertArrayEquals(tree.big, Files.readAllBytes(whole.resolve("big.bin")));
        assertEquals("../a.txt", Files.readSymbolicLink(whole.resolve("dir/link")).toString());
        assertArrayEquals(tree.many(2999), Files.readAllBytes(whole.resolve("many/f02999")));
    }
}
