package org.jpbs.datastore.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The prune retention options {@code keep-last}, {@code keep-hourly}, {@code keep-daily},
 * {@code keep-weekly}, {@code keep-monthly}, {@code keep-yearly} of a datastore ({@code docs/gc.md#prune}, {@code docs/datastore-config.md#datastorecfg}; legacy in PBS, where prune jobs replaced them). Each
 * is absent or at least 1. Immutable.
 *
 * @param values key (e.g. {@code keep-daily}) to count, only the keys that are set
 */
public record KeepOptions(Map<String, Long> values) {
    /** The keys, in PBS order. */
    public static final List<String> KEYS = List.of("keep-last", "keep-hourly", "keep-daily", "keep-weekly",
            "keep-monthly", "keep-yearly");

    /** Validates and copies. */
    public KeepOptions {
        Map<String, Long> m = new LinkedHashMap<>();
        for (String k : KEYS) {
            Long v = values.get(k);
            if (v != null) {
                if (v < 1) {
                    throw new IllegalArgumentException(k + ": must be at least 1, got " + v);
                }
                m.put(k, v);
            }
        }
        for (String k : values.keySet()) {
            if (!KEYS.contains(k)) {
                throw new IllegalArgumentException("unknown retention option '" + k + "'");
            }
        }
        values = java.util.Collections.unmodifiableMap(m);
    }

    /** Reads the keep options of a config section's properties. */
    static KeepOptions of(Map<String, String> props) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (String k : KEYS) {
            String v = props.get(k);
            if (v != null) {
                m.put(k, PropertyString.parseInt(k, v, 1, Integer.MAX_VALUE));
            }
        }
        return new KeepOptions(m);
    }

    private OptionalLong get(String key) {
        Long v = values.get(key);
        return v == null ? OptionalLong.empty() : OptionalLong.of(v);
    }

    /** {@code keep-last}. */
    public OptionalLong last() {
        return get("keep-last");
    }

    /** {@code keep-hourly}. */
    public OptionalLong hourly() {
        return get("keep-hourly");
    }

    /** {@code keep-daily}. */
    public OptionalLong daily() {
        return get("keep-daily");
    }

    /** {@code keep-weekly}. */
    public OptionalLong weekly() {
        return get("keep-weekly");
    }

    /** {@code keep-monthly}. */
    public OptionalLong monthly() {
        return get("keep-monthly");
    }

    /** {@code keep-yearly}. */
    public OptionalLong yearly() {
        return get("keep-yearly");
    }

    /** True if no option is set (prune keeps everything). */
    public boolean isEmpty() {
        return values.isEmpty();
    }
}
