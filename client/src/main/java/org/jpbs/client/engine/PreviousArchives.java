package org.jpbs.client.engine;

import java.io.IOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jpbs.core.snapshot.SnapshotTarget;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;

/**
 * What a backup may reuse of the group's previous snapshot ({@code docs/design.md#engines}):
 * an archive of the same name, made with the same key (fingerprint, or both without) and the
 * same kind of chunks (encrypted or not), as the PBS client checks. A fixed index is reused
 * only with the same chunk size. Downloading the previous index on a server registers its
 * chunks as known for the session.
 */
final class PreviousArchives {
    /** Why nothing of a previous archive can be reused, or the index that can. */
    record Lookup(IndexFile index, String why) {}

    private final SnapshotTarget target;
    private final BackupCrypt crypt;
    /** Lookups made before the archive is opened (the hypervisor checks an incremental image first). */
    private final Map<String, Lookup> looked = new ConcurrentHashMap<>();
    private Optional<BackupManifest> manifest;
    private String manifestFailure;

    PreviousArchives(SnapshotTarget target, BackupCrypt crypt) {
        this.target = target;
        this.crypt = crypt;
    }

    /** The previous manifest; empty if none or unreadable ({@link #manifestFailure()} then says why). */
    synchronized Optional<BackupManifest> manifest() {
        if (manifest == null) {
            try {
                manifest = target.previousManifest();
            } catch (IOException e) {
                manifest = Optional.empty();
                manifestFailure = e.getMessage();
            }
        }
        return manifest;
    }

    /** Why the previous manifest could not be read, or null. */
    synchronized String manifestFailure() {
        manifest();
        return manifestFailure;
    }

    /**
     * The previous index of {@code serverName} if its chunks may be reused, else why not.
     *
     * @throws IOException if the index exists and is reusable but cannot be read or is corrupt
     */
    Lookup lookup(String serverName) throws IOException {
        Lookup l = looked.get(serverName);
        if (l == null) {
            l = find(serverName);
            looked.put(serverName, l);
        }
        return l;
    }

    private Lookup find(String serverName) throws IOException {
        Optional<BackupManifest> m = manifest();
        if (m.isEmpty()) {
            return new Lookup(null, manifestFailure() != null ? manifestFailure()
                    : "group " + target.snapshot().group() + " has no previous snapshot");
        }
        Optional<FileEntry> e = m.get().file(serverName);
        if (e.isEmpty()) {
            return new Lookup(null, "the previous snapshot has no '" + serverName + "'");
        }
        boolean encrypted = crypt.mode() == CryptMode.ENCRYPT;
        if ((e.get().cryptMode() == CryptMode.ENCRYPT) != encrypted) {
            return new Lookup(null, "the previous '" + serverName + "' is " + (encrypted ? "not " : "") + "encrypted");
        }
        try {
            m.get().checkFingerprint(crypt.signKey(), "previous snapshot");
        } catch (IOException ex) {
            return new Lookup(null, "the previous snapshot was made with another key");
        }
        return new Lookup(target.previousIndex(e.get()), null);
    }

    /**
     * The digests a new index of {@code serverName} may reuse: those of the previous index if
     * reusable and (for a fixed index) of chunk size {@code fixedChunkSize}; else none. A
     * previous index that cannot be read is reported to {@code warn} and nothing is reused.
     */
    Set<Digest> known(String serverName, int fixedChunkSize, java.util.function.Consumer<String> warn) {
        try {
            Lookup l = looked.remove(serverName); // the index is downloaded (and its chunks registered) once
            IndexFile idx = (l != null ? l : find(serverName)).index();
            if (idx == null || idx instanceof FixedIndex f && f.chunkSize() != fixedChunkSize) {
                return Set.of();
            }
            Set<Digest> known = new HashSet<>(idx.chunkCount() * 2);
            for (int i = 0; i < idx.chunkCount(); i++) {
                known.add(idx.digest(i));
            }
            return known;
        } catch (IOException e) {
            warn.accept("cannot use " + serverName + " of the previous snapshot, backing it up fully: " + e.getMessage());
            return Set.of();
        }
    }
}
