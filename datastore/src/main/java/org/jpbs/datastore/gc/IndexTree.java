package org.jpbs.datastore.gc;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.datastore.os.DirHandle;
import org.jpbs.datastore.snapshot.DatastoreLayout;

/**
 * Directory listings of the mark phase, all through {@link GcFs} ({@code docs/gc.md#garbage-collection}): the physical walk that finds every {@code .fidx}/{@code .didx}
 * below the root (names starting with {@code .} skipped), and the logical listing of
 * namespaces, groups and snapshots. A permission error is fatal
 * ({@code "cannot continue garbage-collection safely, permission denied on <path>"}), except on
 * {@code lost+found} directly below the root; a vanished directory is skipped.
 */
final class IndexTree {
    private final GcFs fs;
    private final Path root;

    IndexTree(GcFs fs, Path root) {
        this.fs = fs;
        this.root = root;
    }

    /** True for a {@code .fidx} or {@code .didx} name. */
    static boolean isIndexName(String name) {
        return name.endsWith(".fidx") || name.endsWith(".didx");
    }

    /** Every index file below the root, in walk order. */
    Set<Path> walkAll() throws IOException {
        Set<Path> out = new LinkedHashSet<>();
        walk(root, 0, out);
        return out;
    }

    private void walk(Path dir, int depth, Set<Path> out) throws IOException {
        List<DirHandle.Entry> entries;
        GcFs.Dir d;
        try {
            d = fs.openDir(dir);
        } catch (NoSuchFileException e) {
            return;
        } catch (AccessDeniedException e) {
            if (depth == 1 && dir.getFileName().toString().equals("lost+found")) {
                return;
            }
            throw permissionDenied(dir, e);
        }
        List<Path> subdirs = new ArrayList<>();
        try (d) {
            entries = d.entries();
            for (DirHandle.Entry e : entries) {
                if (e.name().startsWith(".")) {
                    continue;
                }
                int type = e.type();
                boolean isDir;
                boolean isFile;
                if (type == DirHandle.DT_UNKNOWN) {
                    try {
                        var st = d.stat(e.name());
                        isDir = st.directory();
                        isFile = st.regular();
                    } catch (NoSuchFileException gone) {
                        continue;
                    }
                } else {
                    isDir = type == DirHandle.DT_DIR;
                    isFile = type == DirHandle.DT_REG;
                }
                if (isDir) {
                    subdirs.add(dir.resolve(e.name()));
                } else if (isFile && isIndexName(e.name())) {
                    out.add(dir.resolve(e.name()));
                }
            }
        } catch (NoSuchFileException e) {
            return;
        } catch (AccessDeniedException e) {
            throw permissionDenied(dir, e);
        }
        subdirs.sort(null);
        for (Path s : subdirs) {
            walk(s, depth + 1, out);
        }
    }

    static IOException permissionDenied(Path p, AccessDeniedException e) {
        return new IOException("cannot continue garbage-collection safely, permission denied on " + p, e);
    }

    /** Names and types of a directory's entries; empty if it vanished. */
    private List<DirHandle.Entry> list(Path dir) throws IOException {
        try (GcFs.Dir d = fs.openDir(dir)) {
            return d.entries();
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (AccessDeniedException e) {
            throw permissionDenied(dir, e);
        }
    }

    /** Every namespace, root first, then depth-first in name order. */
    List<BackupNamespace> namespaces() throws IOException {
        List<BackupNamespace> out = new ArrayList<>();
        collect(BackupNamespace.ROOT, out);
        return out;
    }

    private void collect(BackupNamespace ns, List<BackupNamespace> out) throws IOException {
        out.add(ns);
        if (ns.depth() >= BackupNamespace.MAX_DEPTH) {
            return;
        }
        List<String> names = new ArrayList<>();
        for (DirHandle.Entry e : list(DatastoreLayout.namespaceDir(root, ns).resolve(DatastoreLayout.NS_DIR))) {
            if (DatastoreLayout.isSafeId(e.name())) {
                names.add(e.name());
            }
        }
        names.sort(null);
        for (String n : names) {
            try {
                collect(ns.child(n), out);
            } catch (IllegalArgumentException tooLong) {
                // not a namespace jpbs or PBS could have made
            }
        }
    }

    /** The groups of a namespace, sorted by type and id. */
    List<BackupGroupRef> groups(BackupNamespace ns) throws IOException {
        List<BackupGroupRef> out = new ArrayList<>();
        Path nsDir = DatastoreLayout.namespaceDir(root, ns);
        for (DirHandle.Entry t : list(nsDir)) {
            var type = DatastoreLayout.typeOfDir(t.name());
            if (type.isEmpty()) {
                continue;
            }
            for (DirHandle.Entry id : list(nsDir.resolve(t.name()))) {
                if (DatastoreLayout.isSafeId(id.name())) {
                    out.add(new BackupGroupRef(ns, type.get(), id.name()));
                }
            }
        }
        out.sort(Comparator.comparing((BackupGroupRef g) -> g.type().text()).thenComparing(BackupGroupRef::id));
        return out;
    }

    /**
     * A group's snapshots, newest first, plus its hidden temporary directories
     * ({@code .tmp-*}: backups in progress or killed).
     */
    record GroupListing(List<BackupSnapshotRef> snapshotsNewestFirst, List<Path> tempDirs) {}

    GroupListing group(BackupGroupRef g) throws IOException {
        Path dir = DatastoreLayout.groupDir(root, g);
        List<BackupSnapshotRef> snaps = new ArrayList<>();
        List<Path> temps = new ArrayList<>();
        for (DirHandle.Entry e : list(dir)) {
            if (e.name().startsWith(DatastoreLayout.TMP_PREFIX)) {
                temps.add(dir.resolve(e.name()));
                continue;
            }
            DatastoreLayout.timeOfDir(e.name()).ifPresent(t -> snaps.add(new BackupSnapshotRef(g, t)));
        }
        snaps.sort(Comparator.comparingLong(BackupSnapshotRef::time).reversed());
        return new GroupListing(snaps, temps);
    }

    /**
     * The index files of a snapshot directory, sorted by name.
     *
     * @throws NoSuchFileException if the snapshot vanished
     */
    List<Path> indexFiles(BackupSnapshotRef s) throws IOException {
        Path dir = DatastoreLayout.snapshotDir(root, s);
        List<Path> out = new ArrayList<>();
        try (GcFs.Dir d = fs.openDir(dir)) {
            for (DirHandle.Entry e : d.entries()) {
                if (isIndexName(e.name()) && !e.name().startsWith(".")) {
                    out.add(dir.resolve(e.name()));
                }
            }
        } catch (AccessDeniedException e) {
            throw permissionDenied(dir, e);
        }
        out.sort(null);
        return out;
    }
}
