package org.jpbs.datastore.snapshot;

import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;

/**
 * Names and paths of the datastore directory tree ({@code docs/formats.md#datastore-layout}):
 * {@code <root>[/ns/<a>[/ns/<b>…]]/<type>/<id>/<YYYY-MM-DDTHH:MM:SSZ>/}. Also the rules by
 * which listings accept a directory entry; anything else (hidden entries, temp dirs, foreign
 * files) is ignored.
 */
public final class DatastoreLayout {
    private DatastoreLayout() {}

    /** Directory name introducing a namespace level. */
    public static final String NS_DIR = "ns";
    /** The manifest file of a snapshot. */
    public static final String MANIFEST = "index.json.blob";
    /** The client log blob (not listed in the manifest). */
    public static final String CLIENT_LOG = "client.log.blob";
    /** Group owner file: one line, the Authid plus newline. */
    public static final String OWNER = "owner";
    /** Optional group notes file. */
    public static final String NOTES = "notes";
    /** Empty marker file of a protected snapshot. */
    public static final String PROTECTED = ".protected";
    /** Prefix of jpbs's hidden temporary snapshot directories inside a group directory. */
    public static final String TMP_PREFIX = ".tmp-";

    private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._\\-]*");
    private static final Pattern TIME = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z");

    /** {@code <root>} for the root namespace, else {@code <root>/ns/a/ns/b}. */
    public static Path namespaceDir(Path root, BackupNamespace ns) {
        return ns.isRoot() ? root : root.resolve(ns.relativePath());
    }

    /** {@code <namespace dir>/<type>/<id>}. */
    public static Path groupDir(Path root, BackupGroupRef group) {
        return namespaceDir(root, group.ns()).resolve(group.type().text()).resolve(group.id());
    }

    /** {@code <group dir>/<time string>}. */
    public static Path snapshotDir(Path root, BackupSnapshotRef snapshot) {
        return groupDir(root, snapshot.group()).resolve(snapshot.timeString());
    }

    /** True if {@code name} is a safe id ({@code [A-Za-z0-9_][A-Za-z0-9._\-]*}). */
    public static boolean isSafeId(String name) {
        return SAFE_ID.matcher(name).matches();
    }

    /** The backup type whose directory is named {@code name}, if any. */
    public static Optional<BackupType> typeOfDir(String name) {
        for (BackupType t : BackupType.values()) {
            if (t.text().equals(name)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /**
     * The snapshot time (epoch seconds) of a directory name matching
     * {@code ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$} that is a valid date.
     */
    public static Optional<Long> timeOfDir(String name) {
        if (!TIME.matcher(name).matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(BackupSnapshotRef.parseTime(name));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
