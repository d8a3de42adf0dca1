package org.jpbs.client.pxar.shell;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.jpbs.client.pxar.fs.TreeExtractor;
import org.jpbs.core.pxar.EntrySource;
import org.jpbs.core.pxar.PxarAccessor;
import org.jpbs.core.pxar.PxarDecoder;
import org.jpbs.core.pxar.ReadAt;
import org.jpbs.core.pxar.SelectiveSource;
import org.jpbs.core.pxar.catalog.CatalogDump;
import org.jpbs.core.pxar.catalog.CatalogEntry;
import org.jpbs.core.pxar.catalog.CatalogReader;
import org.jpbs.core.pxar.pattern.MatchEntry;

/**
 * The shell's restores: with patterns, the catalog decides which entries are restored (as
 * {@code --pattern} does: the last matching pattern decides, an entry no pattern matches
 * follows its directory) and which directories lead to them, and only those are read from the
 * archive ({@link SelectiveSource}); without patterns the whole archive is decoded in order.
 * The {@link TreeExtractor} writes them with all metadata.
 */
final class RestorePlan {
    private RestorePlan() {}

    static void restore(CatalogReader catalog, CatalogEntry archiveRoot, PxarAccessor archive, ReadAt payload,
            Path target, List<MatchEntry> patterns, Consumer<String> warnings) throws IOException {
        Files.createDirectories(target);
        TreeExtractor extractor = new TreeExtractor(new TreeExtractor.Options(false, false, false, false, patterns),
                warnings);
        EntrySource source;
        if (patterns.isEmpty()) {
            source = archive.decoder(archive.root());
        } else {
            Map<String, List<byte[]>> plan = new HashMap<>();
            walk(catalog, archiveRoot, new byte[0], false, patterns, plan);
            source = new SelectiveSource(archive, dir -> plan.getOrDefault(key(dir), List.of()));
        }
        try (source) {
            extractor.extract(source, target, payload);
        }
    }

    /** Records, per directory on the way, the children to visit; true if anything below {@code dir} is. */
    private static boolean walk(CatalogReader catalog, CatalogEntry dir, byte[] path, boolean dirMatched,
            List<MatchEntry> patterns, Map<String, List<byte[]>> plan) throws IOException {
        List<byte[]> keep = new ArrayList<>();
        for (CatalogEntry e : catalog.list(dir)) {
            byte[] p = PxarDecoder.join(path, e.name());
            byte[] abs = new byte[p.length + 1];
            abs[0] = '/';
            System.arraycopy(p, 0, abs, 1, p.length);
            Boolean d = MatchEntry.decide(patterns, abs, CatalogDump.fileType(e.type()));
            boolean matched = d != null ? d : dirMatched;
            if (e.isDirectory() ? walk(catalog, e, p, matched, patterns, plan) || matched : matched) {
                keep.add(e.name());
            }
        }
        if (!keep.isEmpty()) {
            plan.put(key(path), keep);
        }
        return !keep.isEmpty();
    }

    private static String key(byte[] path) {
        return new String(path, StandardCharsets.ISO_8859_1);
    }
}
