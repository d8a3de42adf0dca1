package org.jpbs.datastore.jobs;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.datastore.config.PropertyString;

/**
 * One section of a job file: a prune, verification or sync job, or a remote. The properties are
 * kept as written (PBS's keys); typed accessors read the common ones. Values were checked by
 * {@link JobKind#checkValue} (a file with a key of no PBS job is refused by {@link JobConfigFile}). Immutable.
 *
 * @param kind  which file
 * @param id    the job id or remote name
 * @param props key to value, in file order (the items of an array property joined with {@code '\n'})
 */
public record JobConfig(JobKind kind, String id, Map<String, String> props) {
    /**
     * Checks the id, every known key's value and the required keys.
     *
     * @throws IllegalArgumentException {@code "<type> '<id>': <what is wrong>"}
     */
    public JobConfig {
        props = Collections.unmodifiableMap(new LinkedHashMap<>(props));
        try {
            kind.checkId(id);
            for (Map.Entry<String, String> e : props.entrySet()) {
                if (kind.keys().contains(e.getKey())) {
                    kind.checkValue(e.getKey(), e.getValue());
                }
            }
            for (String k : kind.requiredKeys()) {
                if (!props.containsKey(k)) {
                    throw new IllegalArgumentException("missing property '" + k + "'");
                }
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(kind.sectionType() + " '" + id + "': " + e.getMessage(), e);
        }
    }

    /** A property, if set. */
    public Optional<String> get(String key) {
        return Optional.ofNullable(props.get(key));
    }

    /**
     * Every item of a property (an array property such as {@code group-filter} has several,
     * {@link JobKind#listKeys}); empty if unset.
     */
    public java.util.List<String> values(String key) {
        String v = props.get(key);
        return v == null ? java.util.List.of() : java.util.List.of(v.split("\n"));
    }

    /** The datastore ({@code store}). */
    public String store() {
        return props.get("store");
    }

    /** The schedule (calendar event), if any. */
    public Optional<String> schedule() {
        return get("schedule");
    }

    /** The namespace ({@code ns}), root if unset. */
    public BackupNamespace ns() {
        String ns = props.get("ns");
        return ns == null || ns.isEmpty() ? BackupNamespace.ROOT : BackupNamespace.parse(ns);
    }

    /** {@code max-depth}, if set. */
    public OptionalInt maxDepth() {
        String v = props.get("max-depth");
        return v == null ? OptionalInt.empty() : OptionalInt.of((int) PropertyString.parseInt("max-depth", v, 0, 7));
    }

    /** A boolean property (false if unset). */
    public boolean flag(String key) {
        String v = props.get(key);
        return v != null && PropertyString.parseBool(key, v);
    }

    /** True if the job is disabled ({@code disable}; prune jobs). */
    public boolean disabled() {
        return flag("disable");
    }
}
