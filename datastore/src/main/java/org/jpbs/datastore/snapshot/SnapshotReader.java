package org.jpbs.datastore.snapshot;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.index.DynamicIndex;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.FileEntry;

/**
 * Read access to one finished snapshot: its manifest ({@code index.json.blob}, {@code docs/formats.md#manifest-indexjsonblob}) and the files it lists, each checked against its manifest entry
 * (blob: encoded length and SHA-256 of the file; index: logical size and index csum, {@code docs/formats.md#fixed-index-fidx}, {@code docs/formats.md#dynamic-index-didx}).
 * Holds no open files and no locks; immutable after opening.
 */
public final class SnapshotReader {
    private final BackupSnapshotRef ref;
    private final Path dir;
    private final BackupManifest manifest;

    private SnapshotReader(BackupSnapshotRef ref, Path dir, BackupManifest manifest) {
        this.ref = ref;
        this.dir = dir;
        this.manifest = manifest;
    }

    static SnapshotReader open(Datastore ds, BackupSnapshotRef ref) throws IOException {
        Path dir = ds.snapshotDir(ref);
        if (!Files.isDirectory(dir)) {
            throw new org.jpbs.core.errors.NotFoundException(dir.toString(), "snapshot " + ref + " not found");
        }
        Path mpath = dir.resolve(DatastoreLayout.MANIFEST);
        if (!Files.isRegularFile(mpath)) {
            throw new IOException("snapshot " + ref + " is not finished (no " + DatastoreLayout.MANIFEST + ")");
        }
        BackupManifest m = Datastore.readManifest(mpath);
        if (m.backupType() != ref.group().type() || !m.backupId().equals(ref.group().id())
                || m.backupTime() != ref.time()) {
            throw new CorruptDataException(mpath.toString(), -1, "manifest is for " + m.backupType().text() + "/"
                    + m.backupId() + "/" + BackupSnapshotRef.formatTime(m.backupTime()) + ", not " + ref);
        }
        return new SnapshotReader(ref, dir, m);
    }

    /** The snapshot. */
    public BackupSnapshotRef ref() {
        return ref;
    }

    /** The snapshot directory. */
    public Path dir() {
        return dir;
    }

    /** The parsed manifest (do not modify it). */
    public BackupManifest manifest() {
        return manifest;
    }

    /**
     * The manifest entry of {@code serverName}.
     *
     * @throws IOException {@code "archive '<name>' not found in snapshot <ref>"}
     */
    public FileEntry entry(String serverName) throws IOException {
        return manifest.file(serverName).orElseThrow(
                () -> new org.jpbs.core.errors.NotFoundException(null, "archive '" + serverName + "' not found in snapshot " + ref));
    }

    /**
     * Opens a {@code .fidx} or {@code .didx} listed in the manifest and checks its logical size
     * and its csum against the manifest entry.
     *
     * @throws IOException          if the archive is not listed or is not an index (message names it)
     * @throws CorruptDataException if the file does not parse or does not match the manifest
     */
    public IndexFile openIndex(String serverName) throws IOException {
        FileEntry e = entry(serverName);
        String resource = resource(serverName);
        ByteBuffer data = ByteBuffer.wrap(readFile(serverName));
        IndexFile idx;
        if (serverName.endsWith(".fidx")) {
            idx = FixedIndex.read(data, resource);
        } else if (serverName.endsWith(".didx")) {
            idx = DynamicIndex.read(data, resource);
        } else {
            throw new IOException("archive '" + serverName + "' in snapshot " + ref + " is not an index (.fidx or .didx)");
        }
        if (idx.size() != e.size()) {
            throw new CorruptDataException(resource, -1, "index size " + idx.size()
                    + " does not match the manifest (" + e.size() + ")");
        }
        Digest csum = idx.computeCsum();
        if (!csum.equals(e.csum())) {
            throw new CorruptDataException(resource, -1, "index csum " + csum.hex()
                    + " does not match the manifest (" + e.csum().hex() + ")");
        }
        return idx;
    }

    /**
     * The raw blob of a {@code .blob} listed in the manifest, checked against the manifest
     * (length and SHA-256 of the file) and its CRC; not decoded, so it works for encrypted blobs.
     *
     * @throws IOException          if the archive is not listed
     * @throws CorruptDataException if the file does not match the manifest or is not a valid blob
     */
    public DataBlob openBlob(String serverName) throws IOException {
        FileEntry e = entry(serverName);
        String resource = resource(serverName);
        byte[] raw = readFile(serverName);
        if (raw.length != e.size()) {
            throw new CorruptDataException(resource, -1, "blob size " + raw.length
                    + " does not match the manifest (" + e.size() + ")");
        }
        Digest csum = Digest.sha256(raw);
        if (!csum.equals(e.csum())) {
            throw new CorruptDataException(resource, -1, "blob checksum " + csum.hex()
                    + " does not match the manifest (" + e.csum().hex() + ")");
        }
        DataBlob blob = DataBlob.wrap(raw, resource);
        blob.verifyCrc(resource);
        return blob;
    }

    /**
     * The decoded content of a {@code .blob} listed in the manifest (see {@link #openBlob}).
     *
     * @throws org.jpbs.core.errors.EncryptedDataException if the blob is encrypted
     */
    public byte[] readBlob(String serverName) throws IOException {
        return openBlob(serverName).decode(resource(serverName), -1);
    }

    /**
     * The decoded content of a {@code .blob}, decrypted with {@code crypt} if it is encrypted.
     *
     * @param crypt the key, or null
     * @throws org.jpbs.core.errors.CryptoException if it does not decrypt with {@code crypt}
     */
    public byte[] readBlob(String serverName, org.jpbs.core.crypto.CryptConfig crypt) throws IOException {
        return openBlob(serverName).decode(resource(serverName), -1, crypt);
    }

    private byte[] readFile(String serverName) throws IOException {
        Path p = dir.resolve(serverName);
        if (!p.getParent().equals(dir)) {
            throw new IOException("invalid archive name '" + serverName + "'");
        }
        try {
            return Files.readAllBytes(p);
        } catch (NoSuchFileException ex) {
            throw new CorruptDataException(resource(serverName), -1, "file listed in the manifest is missing");
        }
    }

    private String resource(String serverName) {
        return ref.relativePath() + "/" + serverName;
    }

    @Override
    public String toString() {
        return "SnapshotReader[" + ref + "]";
    }
}
