package org.jpbs.datastore.verify;

import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.digest.Digest;

/**
 * One thing verify found wrong.
 *
 * @param snapshot the snapshot
 * @param archive  the file of the snapshot ({@code drive-scsi0.img.fidx}), or null for the manifest itself
 * @param chunk    the chunk, or null for a file-level problem
 * @param kind     what is wrong
 * @param message  one line naming the file or chunk and the fault
 */
public record VerifyProblem(BackupSnapshotRef snapshot, String archive, Digest chunk, Kind kind, String message) {
    /** Categories of problems. */
    public enum Kind {
        /** {@code index.json.blob} missing, unreadable or for another snapshot. */
        MANIFEST,
        /** A file listed in the manifest is missing, has the wrong size or checksum, or does not parse. */
        FILE,
        /** A chunk file is missing. */
        CHUNK_MISSING,
        /** A chunk does not decode (CRC, compression) or its SHA-256 or length is wrong; it was renamed to {@code .bad}. */
        CHUNK_CORRUPT,
        /** The chunk is encrypted but the archive is not, or the other way round (not renamed). */
        CRYPT_MODE,
        /** The chunk was already found corrupt earlier in this run. */
        CHUNK_MARKED_CORRUPT
    }
}
