package org.jpbs.core.pxar.pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Globs and include/exclude lists with the semantics of PBS's pathpatterns (git wildmatch). */
class MatchEntryTest {
    private static final int DIR = 0040000, REG = 0100000;

    private static boolean glob(String p, String t) {
        return Glob.parse(b(p)).matches(b(t), 0);
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void globs() {
        assertTrue(glob("*.txt", "a.txt"));
        assertFalse(glob("*.txt", "d/a.txt"));
        assertTrue(glob("a?c", "abc"));
        assertFalse(glob("a?c", "a/c"));
        assertTrue(glob("**/foo", "foo"));
        assertTrue(glob("**/foo", "a/b/foo"));
        assertTrue(glob("a/**/b", "a/b"));
        assertTrue(glob("a/**/b", "a/x/y/b"));
        assertTrue(glob("a/**", "a/x/y"));
        assertFalse(glob("a/**", "a"));
        assertTrue(glob("[a-c]x", "bx"));
        assertFalse(glob("[^a-c]x", "bx"));
        assertTrue(glob("f[[:digit:]]", "f7"));
        assertTrue(glob("\\*", "*"));
        assertFalse(glob("\\*", "x"));
        assertTrue(glob("a**b", "axxb"));
        assertFalse(glob("a**b", "a/b"));
        assertThrows(IllegalArgumentException.class, () -> Glob.parse(b("[abc")));
        assertThrows(IllegalArgumentException.class, () -> Glob.parse(b("abc\\")));
        assertThrows(IllegalArgumentException.class, () -> Glob.parse(b("")));
    }

    @Test
    void entriesMatchPathSuffixesAndTypes() {
        MatchEntry e = MatchEntry.parse(b("bar"), false, false);
        assertTrue(e.matches(b("/foo/bar"), REG));
        assertTrue(e.matches(b("/bar"), DIR));
        assertFalse(e.matches(b("/bar/baz"), REG));
        MatchEntry dirsOnly = MatchEntry.parse(b("cache/"), false, false);
        assertTrue(dirsOnly.directoriesOnly());
        assertTrue(dirsOnly.matches(b("/x/cache"), DIR));
        assertFalse(dirsOnly.matches(b("/x/cache"), REG));
        MatchEntry rooted = MatchEntry.parse(b("/tmp"), false, false);
        assertTrue(rooted.matches(b("/tmp"), DIR));
        assertFalse(rooted.matches(b("/a/tmp"), DIR));
        MatchEntry anchored = MatchEntry.parse(b("/sub/x"), false, true);
        assertTrue(anchored.matches(b("/sub/x"), REG));
        assertFalse(anchored.matches(b("/a/sub/x"), REG));
    }

    @Test
    void lastMatchingEntryDecides() {
        List<MatchEntry> list = List.of(MatchEntry.parse(b("*.log"), false, false),
                MatchEntry.parse(b("!keep.log"), false, false));
        assertEquals(Boolean.FALSE, MatchEntry.decide(list, b("/a/x.log"), REG));
        assertEquals(Boolean.TRUE, MatchEntry.decide(list, b("/a/keep.log"), REG));
        assertNull(MatchEntry.decide(list, b("/a/x.txt"), REG));
        assertEquals("!keep.log\n", new String(list.get(1).cliLine(), StandardCharsets.UTF_8));
        assertEquals("cache/\n", new String(MatchEntry.parse(b("cache//"), false, false).cliLine(), StandardCharsets.UTF_8));
    }
}
