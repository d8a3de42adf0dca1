package org.jpbs.core.api;

import java.util.Objects;

/**
 * A backup group (spec {@code pbs-formats.md} §7): a type and a safe-id within a namespace,
 * written {@code vm/100}.
 *
 * @param ns   the namespace
 * @param type the backup type
 * @param id   the backup id (safe id)
 */
public record BackupGroupRef(BackupNamespace ns, BackupType type, String id) {
    /** @throws IllegalArgumentException if {@code id} is not a safe id */
    public BackupGroupRef {
        Objects.requireNonNull(ns, "ns");
        Objects.requireNonNull(type, "type");
        SafeId.check("backup id", id);
    }

    /**
     * Parses {@code "vm/100"} within {@code ns}.
     *
     * @throws IllegalArgumentException naming the value if it is not {@code <type>/<id>}
     */
    public static BackupGroupRef parse(BackupNamespace ns, String s) {
        if (s == null) {
            throw new IllegalArgumentException("backup group must not be null");
        }
        int slash = s.indexOf('/');
        if (slash < 0 || s.indexOf('/', slash + 1) >= 0) {
            throw new IllegalArgumentException("invalid backup group '" + s + "' (expected <type>/<id>, e.g. vm/100)");
        }
        return new BackupGroupRef(ns, BackupType.parse(s.substring(0, slash)), s.substring(slash + 1));
    }

    /** The group directory below the datastore root: {@code vm/100} or {@code ns/a/vm/100}. */
    public String relativePath() {
        String own = type.text() + "/" + id;
        return ns.isRoot() ? own : ns.relativePath() + "/" + own;
    }

    /** {@code vm/100} (without the namespace). */
    @Override
    public String toString() {
        return type.text() + "/" + id;
    }
}
