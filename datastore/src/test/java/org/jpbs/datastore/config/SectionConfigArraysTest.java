package org.jpbs.datastore.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Array properties of PBS section configs ({@code docs/notifications.md#files}): a key named
 * repeatable may have one line per item, read back in order by {@link SectionConfigText.Section#values};
 * other keys still refuse repeats; {@link SectionConfigText#withSectionValues} writes one line per item.
 */
class SectionConfigArraysTest {
    @Test
    void repeatableKeysKeepEveryValueInOrder() {
        String text = "matcher: m\n\ttarget a\n\tcomment c\n\ttarget b\n";
        SectionConfigText t = SectionConfigText.parse(text, "n.cfg", Set.of("target"));
        SectionConfigText.Section s = t.section("matcher", "m").orElseThrow();
        assertEquals(List.of("a", "b"), s.values("target"));
        assertEquals("a", s.get("target"));
        assertEquals(List.of("c"), s.values("comment"));
        assertEquals(List.of(), s.values("none"));
        assertEquals(text, t.text());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SectionConfigText.parse(text, "n.cfg"));
        assertEquals("n.cfg line 4: duplicate property 'target'", e.getMessage());
    }

    @Test
    void withSectionValuesWritesOneLinePerItemKeysSorted() {
        Map<String, List<String>> props = new LinkedHashMap<>();
        props.put("target", List.of("x", "y"));
        props.put("comment", List.of("hi"));
        SectionConfigText t = SectionConfigText.parse("a: b\n\tk v\n", "n.cfg", Set.of("target"))
                .withSectionValues("matcher", "m", props);
        assertEquals("a: b\n\tk v\n\nmatcher: m\n\tcomment hi\n\ttarget x\n\ttarget y\n", t.text());
        assertEquals(List.of("x", "y"), t.section("matcher", "m").orElseThrow().values("target"));
    }
}
