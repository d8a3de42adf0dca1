package org.jpbs.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.DatastoreLayout;

/**
 * The JSON items of the group, snapshot and file listings ({@code docs/api.md#admindatastorestore};
 * shapes of vectors {@code real-pbs/api/groups.body}, {@code snapshots.body}, {@code files.body}):
 * <ul>
 * <li>file: {@code {"filename", "crypt-mode"?, "size"?}} — the manifest's files, then
 *     {@code index.json.blob} ({@code sign-only} if the manifest is signed, else {@code none};
 *     its size on disk), then other {@code *.fidx|*.didx|*.blob} files of the directory (e.g.
 *     {@code client.log.blob}) with the file name only;</li>
 * <li>snapshot: {@code {"backup-type","backup-id","backup-time","comment"? (first line of the
 *     notes),"verification"? ({"upid","state"}),"fingerprint"? (key fingerprint),"files",
 *     "size"? (sum of the file sizes),"owner","protected"}}; a snapshot whose manifest cannot be
 *     read (unfinished) lists its directory files only and has no size;</li>
 * <li>group: {@code {"backup-count","backup-id","backup-type","files" (names in the last
 *     snapshot),"last-backup","owner","comment"? (first line of the group notes)}}.</li>
 * </ul>
 * Stateless.
 */
final class SnapshotJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final Pattern BACKUP_FILE = Pattern.compile(".*\\.(?:fidx|didx|blob)");

    private SnapshotJson() {}

    /** Snapshot directories of a group (finished or not), oldest first. */
    static List<BackupSnapshotRef> snapshotRefs(Datastore ds, BackupGroupRef group) throws IOException {
        List<BackupSnapshotRef> out = new ArrayList<>();
        for (Path p : list(ds.groupDir(group))) {
            if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                DatastoreLayout.timeOfDir(p.getFileName().toString()).ifPresent(t -> out.add(new BackupSnapshotRef(group, t)));
            }
        }
        out.sort((a, b) -> Long.compare(a.time(), b.time()));
        return out;
    }

    /**
     * Snapshot times of a group (finished or not), sorted, as a plain {@code long[]}: 8 bytes per
     * snapshot, for listings of groups with very many snapshots.
     */
    static long[] snapshotTimes(Datastore ds, BackupGroupRef group) throws IOException {
        long[] times = new long[16];
        int n = 0;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(ds.groupDir(group))) {
            for (Path p : s) {
                var t = DatastoreLayout.timeOfDir(p.getFileName().toString());
                if (t.isPresent()) { // a non-directory of that name is skipped when it is listed
                    if (n == times.length) {
                        times = java.util.Arrays.copyOf(times, n * 2);
                    }
                    times[n++] = t.get();
                }
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            return new long[0];
        }
        long[] out = java.util.Arrays.copyOf(times, n);
        java.util.Arrays.sort(out);
        return out;
    }

    /** Names of the backup files ({@code *.fidx|*.didx|*.blob}) in a directory, sorted. */
    static List<String> dirFiles(Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        for (Path p : list(dir)) {
            String n = p.getFileName().toString();
            if (BACKUP_FILE.matcher(n).matches() && Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                out.add(n);
            }
        }
        out.sort(null);
        return out;
    }

    private static List<Path> list(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            ds.forEach(out::add);
        } catch (NoSuchFileException | NotDirectoryException e) {
            return out;
        }
        return out;
    }

    /** The manifest and file list of a finished snapshot. */
    record Contents(BackupManifest manifest, ArrayNode files, long size) {}

    /**
     * Reads the manifest and lists the files (PBS {@code get_all_snapshot_files}).
     *
     * @throws IOException if the snapshot does not exist, is unfinished or its manifest is unreadable
     */
    static Contents contents(Datastore ds, BackupSnapshotRef ref) throws IOException {
        BackupManifest m = ds.openSnapshot(ref).manifest();
        Path dir = ds.snapshotDir(ref);
        ArrayNode files = F.arrayNode();
        Set<String> listed = new LinkedHashSet<>();
        long size = 0;
        for (FileEntry f : m.files()) {
            files.add(file(f.filename(), f.cryptMode(), f.size()));
            listed.add(f.filename());
            size += f.size();
        }
        long manifestSize = Files.size(dir.resolve(DatastoreLayout.MANIFEST));
        files.add(file(DatastoreLayout.MANIFEST, m.signature() != null ? CryptMode.SIGN_ONLY : CryptMode.NONE,
                manifestSize));
        listed.add(DatastoreLayout.MANIFEST);
        size += manifestSize;
        for (String n : dirFiles(dir)) {
            if (!listed.contains(n)) {
                files.add(F.objectNode().put("filename", n));
            }
        }
        return new Contents(m, files, size);
    }

    private static ObjectNode file(String name, CryptMode mode, long size) {
        ObjectNode o = F.objectNode();
        o.put("filename", name);
        o.put("crypt-mode", mode.text());
        o.put("size", size);
        return o;
    }

    /**
     * One snapshot list item (see the class comment), from one listing of the snapshot
     * directory and one read of its manifest (no other file system calls unless the directory
     * holds backup files the manifest does not name). Null if the snapshot vanished meanwhile.
     */
    static ObjectNode snapshot(Datastore ds, BackupSnapshotRef ref, String owner) throws IOException {
        Path dir = ds.snapshotDir(ref);
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                names.add(p.getFileName().toString());
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            return null;
        }
        names.sort(null);
        ObjectNode o = F.objectNode();
        o.put("backup-type", ref.group().type().text());
        o.put("backup-id", ref.group().id());
        o.put("backup-time", ref.time());
        BackupManifest m = null;
        long manifestSize = 0;
        if (names.contains(DatastoreLayout.MANIFEST)) {
            Path mp = dir.resolve(DatastoreLayout.MANIFEST);
            try {
                byte[] raw = Files.readAllBytes(mp);
                m = BackupManifest.fromBlob(DataBlob.wrap(raw, mp.toString()), mp.toString());
                manifestSize = raw.length;
                if (m.backupType() != ref.group().type() || !m.backupId().equals(ref.group().id())
                        || m.backupTime() != ref.time()) {
                    m = null; // a manifest of another snapshot: list the directory only
                }
            } catch (IOException e) {
                m = null;
            }
        }
        if (m != null) {
            ObjectNode unprotected = m.unprotected();
            JsonNode notes = unprotected.get("notes");
            if (notes != null && notes.isTextual()) {
                firstLine(notes.textValue()).ifPresent(l -> o.put("comment", l));
            }
            JsonNode vs = unprotected.get("verify_state");
            if (vs != null && vs.isObject() && vs.path("upid").isTextual() && vs.path("state").isTextual()) {
                o.putObject("verification").put("upid", vs.get("upid").textValue()).put("state", vs.get("state").textValue());
            }
            JsonNode fp = unprotected.get("key-fingerprint");
            if (fp != null && fp.isTextual()) {
                o.put("fingerprint", fp.textValue());
            }
            ArrayNode files = o.putArray("files");
            Set<String> listed = new LinkedHashSet<>();
            long size = 0;
            for (FileEntry f : m.files()) {
                files.add(file(f.filename(), f.cryptMode(), f.size()));
                listed.add(f.filename());
                size += f.size();
            }
            files.add(file(DatastoreLayout.MANIFEST, m.signature() != null ? CryptMode.SIGN_ONLY : CryptMode.NONE,
                    manifestSize));
            listed.add(DatastoreLayout.MANIFEST);
            size += manifestSize;
            for (String n : names) {
                if (!listed.contains(n) && isBackupFile(dir, n)) {
                    files.add(F.objectNode().put("filename", n));
                }
            }
            o.put("size", size);
        } else {
            ArrayNode files = o.putArray("files");
            for (String n : names) {
                if (isBackupFile(dir, n)) {
                    files.add(F.objectNode().put("filename", n));
                }
            }
        }
        o.put("owner", owner);
        o.put("protected", names.contains(DatastoreLayout.PROTECTED));
        return o;
    }

    private static boolean isBackupFile(Path dir, String name) {
        return BACKUP_FILE.matcher(name).matches() && Files.isRegularFile(dir.resolve(name), LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * One group list item, or null if the group has no snapshot.
     */
    static ObjectNode group(Datastore ds, BackupGroupRef g, String owner) throws IOException {
        List<BackupSnapshotRef> refs = snapshotRefs(ds, g);
        if (refs.isEmpty()) {
            return null;
        }
        BackupSnapshotRef last = refs.getLast();
        for (int i = refs.size() - 1; i >= 0; i--) {
            if (Files.isRegularFile(ds.snapshotDir(refs.get(i)).resolve(DatastoreLayout.MANIFEST))) {
                last = refs.get(i);
                break;
            }
        }
        ObjectNode o = F.objectNode();
        o.put("backup-count", refs.size());
        o.put("backup-id", g.id());
        o.put("backup-type", g.type().text());
        ArrayNode files = o.putArray("files");
        for (String n : lastFiles(ds, last)) {
            files.add(n);
        }
        o.put("last-backup", last.time());
        o.put("owner", owner);
        Path notes = ds.groupDir(g).resolve(DatastoreLayout.NOTES);
        if (Files.isRegularFile(notes)) {
            firstLine(Files.readString(notes, StandardCharsets.UTF_8)).ifPresent(l -> o.put("comment", l));
        }
        return o;
    }

    /** File names of a snapshot directory: the manifest first, then the manifest's files, then the rest. */
    private static List<String> lastFiles(Datastore ds, BackupSnapshotRef ref) throws IOException {
        List<String> present = dirFiles(ds.snapshotDir(ref));
        Set<String> out = new LinkedHashSet<>();
        if (present.contains(DatastoreLayout.MANIFEST)) {
            out.add(DatastoreLayout.MANIFEST);
            try {
                for (FileEntry f : ds.openSnapshot(ref).manifest().files()) {
                    if (present.contains(f.filename())) {
                        out.add(f.filename());
                    }
                }
            } catch (IOException e) {
                // unreadable manifest: directory order only
            }
        }
        out.addAll(present);
        return new ArrayList<>(out);
    }

    private static java.util.Optional<String> firstLine(String s) {
        return s.lines().findFirst();
    }
}
