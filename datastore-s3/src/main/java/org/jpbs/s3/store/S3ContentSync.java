package org.jpbs.s3.store;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.jpbs.datastore.os.AtomicFiles;
import org.jpbs.datastore.snapshot.DatastoreLayout;
import org.jpbs.s3.client.ObjectStore;

/**
 * Mirrors a datastore's files other than chunks between the local cache directory and the
 * bucket's {@code .cnt/} objects ({@code docs/s3.md#snapshot-files}): a snapshot's files are
 * uploaded after its commit (the manifest last, so a reader of the bucket that sees the manifest
 * sees every file), group owner and notes and the protection marker when they change; a
 * removed snapshot's objects are deleted. {@link #refresh} rebuilds the local directory tree of
 * a fresh cache from the bucket, each snapshot made visible only when all its files are there,
 * each namespace marker ({@code .namespace}) as the namespace's directory.
 */
public final class S3ContentSync {
    private static final Pattern SNAPSHOT_TIME = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z");

    private final ObjectStore objects;
    private final Path root;

    /** Mirrors {@code root} (the cache directory) to {@code objects}. */
    public S3ContentSync(ObjectStore objects, Path root) {
        this.objects = objects;
        this.root = root;
    }

    /** Uploads one file, given relative to the datastore root ('/' separators). */
    public void uploadFile(String relative) throws IOException {
        objects.put(ObjectKeys.content(relative), Files.readAllBytes(root.resolve(relative)), false);
    }

    /** Writes an empty object (a marker), given relative to the datastore root. */
    public void putEmpty(String relative) throws IOException {
        objects.put(ObjectKeys.content(relative), new byte[0], false);
    }

    /** Deletes one file's object (absent is fine). */
    public void deleteFile(String relative) throws IOException {
        objects.delete(List.of(ObjectKeys.content(relative)));
    }

    /** Uploads every file of a snapshot directory, the manifest last. */
    public void uploadSnapshot(String relativeDir) throws IOException {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(root.resolve(relativeDir))) {
            for (Path p : s) {
                String n = p.getFileName().toString();
                if (Files.isRegularFile(p) && !n.contains(".tmp_") && !n.equals(DatastoreLayout.MANIFEST)) {
                    names.add(n);
                }
            }
        }
        names.sort(null);
        names.add(DatastoreLayout.MANIFEST);
        for (String n : names) {
            uploadFile(relativeDir + "/" + n);
        }
    }

    /** Deletes every object below a directory (a removed snapshot or group). */
    public void deleteTree(String relativeDir) throws IOException {
        List<String> keys = new ArrayList<>();
        String prefix = ObjectKeys.content(relativeDir) + "/";
        objects.list(prefix, o -> keys.add(o.key()));
        // the manifest first: a half-deleted snapshot is never listed as a snapshot by a refresh
        keys.sort((a, b) -> Boolean.compare(!a.endsWith("/" + DatastoreLayout.MANIFEST),
                !b.endsWith("/" + DatastoreLayout.MANIFEST)));
        for (String k : keys) {
            objects.delete(List.of(k));
        }
    }

    /**
     * Downloads every {@code .cnt/} object missing locally: group files in place, each snapshot
     * into a hidden temporary directory renamed to its final name when complete (and only if
     * its manifest is in the bucket).
     *
     * @return the number of snapshots added
     */
    public int refresh() throws IOException {
        Map<String, List<String>> byDir = new LinkedHashMap<>();
        objects.list(ObjectKeys.CONTENT, o -> {
            String rel = o.key().substring(ObjectKeys.CONTENT.length());
            int slash = rel.lastIndexOf('/');
            byDir.computeIfAbsent(slash < 0 ? "" : rel.substring(0, slash), k -> new ArrayList<>())
                    .add(rel.substring(slash + 1));
        });
        int added = 0;
        for (Map.Entry<String, List<String>> e : byDir.entrySet()) {
            String dir = e.getKey();
            check(dir);
            String last = dir.substring(dir.lastIndexOf('/') + 1);
            if (SNAPSHOT_TIME.matcher(last).matches()) {
                if (!Files.isDirectory(root.resolve(dir)) && e.getValue().contains(DatastoreLayout.MANIFEST)) {
                    fetchSnapshot(dir, e.getValue());
                    added++;
                }
            } else {
                for (String n : e.getValue()) {
                    Path target = root.resolve(dir).resolve(n);
                    if (n.equals(ObjectKeys.NAMESPACE_MARKER)) {
                        Files.createDirectories(target.getParent()); // a namespace, maybe empty: its directory
                    } else if (!Files.exists(target)) {
                        fetch(dir.isEmpty() ? n : dir + "/" + n, target);
                    }
                }
            }
        }
        return added;
    }

    private void fetchSnapshot(String dir, List<String> names) throws IOException {
        Path finalDir = root.resolve(dir);
        Files.createDirectories(finalDir.getParent());
        Path tmp = finalDir.resolveSibling(DatastoreLayout.TMP_PREFIX + "refresh-" + AtomicFiles.randomSuffix(8));
        Files.createDirectory(tmp);
        try {
            for (String n : names) {
                fetch(dir + "/" + n, tmp.resolve(n));
            }
            Files.move(tmp, finalDir, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException ex) {
            AtomicFiles.deleteTree(tmp);
            throw ex;
        }
    }

    private void fetch(String relative, Path target) throws IOException {
        byte[] data = objects.get(ObjectKeys.content(relative)).map(ObjectStore.Fetched::data)
                .orElseThrow(() -> new IOException(objects.describe(ObjectKeys.content(relative))
                        + " vanished while the cache was refreshed"));
        Files.createDirectories(target.getParent());
        AtomicFiles.replaceFile(target, data, false);
    }

    private static void check(String dir) throws IOException {
        for (String part : dir.split("/")) {
            if (part.equals("..") || part.equals(".") || (part.isEmpty() && !dir.isEmpty())) {
                throw new IOException("refusing bucket object path '" + dir + "' (not a datastore path)");
            }
        }
    }
}
