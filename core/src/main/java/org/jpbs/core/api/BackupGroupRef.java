package org.jpbs.core.api;

import java.util.Objects;

/**
 * A backup group ({@code docs/formats.md#datastore-layout}): a type and a safe-id within a namespace,
 * written {@code vm/100}.
 *
 * @param ns   the namespace
 * @param type the backup type
 * @param id   the backup id (safe id)
 */
public record BackupGroupRef(BackupNamespace ns, BackupType type, String id) {
    /**
     * Longest backup id: 255 characters, the longest file name Linux file systems store (the id
     * is the group's directory name). PBS's schema has no limit; a longer id fails there when
     * the directory is created.
     */
    public static final int MAX_ID_LENGTH = 255;

    /** @throws IllegalArgumentException if {@code id} is not a safe id or longer than {@link #MAX_ID_LENGTH} */
    public BackupGroupRef {
        Objects.requireNonNull(ns, "ns");
        Objects.requireNonNull(type, "type");
        if (id != null && id.length() > MAX_ID_LENGTH) {
            throw new IllegalArgumentException("backup id '" + id.substring(0, 32) + "...' is longer than "
                    + MAX_ID_LENGTH + " characters");
        }
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
