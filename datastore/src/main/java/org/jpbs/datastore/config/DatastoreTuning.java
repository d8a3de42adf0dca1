package org.jpbs.datastore.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jpbs.datastore.chunks.SyncLevel;

/**
 * The {@code tuning} property string of a datastore ({@code docs/datastore-config.md#datastorecfg}),
 * typed, with the PBS defaults for keys that are not set:
 * <ul>
 * <li>{@code chunk-order} {@code inode} (default) | {@code none}: the order verify (and GC
 *     marking, when asked) visits chunks;</li>
 * <li>{@code sync-level} {@code none} | {@code filesystem} (default) | {@code file};</li>
 * <li>{@code gc-atime-cutoff}: minutes, default 1445 (24 h 5 min); jpbs accepts 1..525600;</li>
 * <li>{@code gc-atime-safety-check}: boolean, default true;</li>
 * <li>{@code gc-cache-capacity}: entries of GC's touched-chunk cache, default 1048576, 0 = off;</li>
 * <li>{@code gc-chunk-metadata-prefetch}: boolean, default false (jpbs: walk the chunk
 *     directories ahead of GC marking).</li>
 * </ul>
 * Keys jpbs does not know (e.g. newer PBS ones) are kept and written back unchanged.
 *
 * @param raw the property string's items as written, in order
 */
public record DatastoreTuning(Map<String, String> raw) {
    /** Default of {@code gc-atime-cutoff}, minutes. */
    public static final long DEFAULT_GC_ATIME_CUTOFF_MINUTES = 1445;
    /** Default of {@code gc-cache-capacity}, entries. */
    public static final long DEFAULT_GC_CACHE_CAPACITY = 1_048_576;
    /** The keys jpbs understands. */
    public static final List<String> KEYS = List.of("chunk-order", "sync-level", "gc-atime-cutoff",
            "gc-atime-safety-check", "gc-cache-capacity", "gc-chunk-metadata-prefetch");
    /** No options set: every default. */
    public static final DatastoreTuning DEFAULTS = new DatastoreTuning(Map.of());

    /** The order in which chunks are visited. */
    public enum ChunkOrder {
        /** Sorted by inode number (fewer seeks on spinning disks); the default. */
        INODE("inode"),
        /** Index order. */
        NONE("none");

        private final String text;

        ChunkOrder(String text) {
            this.text = text;
        }

        /** The config word. */
        public String text() {
            return text;
        }
    }

    /** Validates every known key and copies the map. */
    public DatastoreTuning {
        raw = Collections.unmodifiableMap(new LinkedHashMap<>(raw));
        chunkOrderOf(raw);
        syncLevelOf(raw);
        cutoffOf(raw);
        boolOf(raw, "gc-atime-safety-check", true);
        capacityOf(raw);
        boolOf(raw, "gc-chunk-metadata-prefetch", false);
    }

    /**
     * Parses a {@code tuning} value.
     *
     * @throws IllegalArgumentException {@code "tuning: ..."} naming the bad key or value
     */
    public static DatastoreTuning parse(String value) {
        return new DatastoreTuning(PropertyString.parse("tuning", value, null));
    }

    /** The property string to write (empty if nothing is set). */
    public String format() {
        StringBuilder sb = new StringBuilder();
        raw.forEach((k, v) -> {
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(PropertyString.format(Map.of(k, v)));
        });
        return sb.toString();
    }

    /** A copy with {@code key} set ({@code value} non-null) or removed (null), order kept. */
    public DatastoreTuning with(String key, String value) {
        Map<String, String> m = new LinkedHashMap<>(raw);
        if (value == null) {
            m.remove(key);
        } else {
            m.put(key, value);
        }
        return new DatastoreTuning(m);
    }

    /** {@code chunk-order}. */
    public ChunkOrder chunkOrder() {
        return chunkOrderOf(raw);
    }

    /** {@code sync-level}. */
    public SyncLevel syncLevel() {
        return syncLevelOf(raw);
    }

    /** {@code gc-atime-cutoff} in minutes. */
    public long gcAtimeCutoffMinutes() {
        return cutoffOf(raw);
    }

    /** {@code gc-atime-safety-check}. */
    public boolean gcAtimeSafetyCheck() {
        return boolOf(raw, "gc-atime-safety-check", true);
    }

    /** {@code gc-cache-capacity} in entries (0 = no cache). */
    public long gcCacheCapacity() {
        return capacityOf(raw);
    }

    /** {@code gc-chunk-metadata-prefetch}. */
    public boolean gcChunkMetadataPrefetch() {
        return boolOf(raw, "gc-chunk-metadata-prefetch", false);
    }

    private static ChunkOrder chunkOrderOf(Map<String, String> raw) {
        String v = raw.get("chunk-order");
        if (v == null) {
            return ChunkOrder.INODE;
        }
        for (ChunkOrder o : ChunkOrder.values()) {
            if (o.text.equals(v.strip())) {
                return o;
            }
        }
        throw new IllegalArgumentException("tuning: chunk-order '" + v + "' is not one of inode, none");
    }

    private static SyncLevel syncLevelOf(Map<String, String> raw) {
        String v = raw.get("sync-level");
        try {
            return v == null ? SyncLevel.DEFAULT : SyncLevel.parse(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("tuning: " + e.getMessage());
        }
    }

    private static long cutoffOf(Map<String, String> raw) {
        String v = raw.get("gc-atime-cutoff");
        return v == null ? DEFAULT_GC_ATIME_CUTOFF_MINUTES : PropertyString.parseInt("tuning: gc-atime-cutoff", v, 1, 525_600);
    }

    private static long capacityOf(Map<String, String> raw) {
        String v = raw.get("gc-cache-capacity");
        return v == null ? DEFAULT_GC_CACHE_CAPACITY
                : PropertyString.parseInt("tuning: gc-cache-capacity", v, 0, Integer.MAX_VALUE);
    }

    private static boolean boolOf(Map<String, String> raw, String key, boolean dflt) {
        String v = raw.get(key);
        return v == null ? dflt : PropertyString.parseBool("tuning: " + key, v);
    }
}
