package org.jpbs.core.manifest;

import java.util.Objects;
import org.jpbs.core.digest.Digest;

/**
 * One file of a snapshot as listed in the manifest ({@code docs/formats.md#manifest-indexjsonblob}). For a
 * blob, {@code size} is the encoded blob length and {@code csum} the SHA-256 of the blob
 * bytes; for an index, {@code size} is the logical data size and {@code csum} the index csum.
 *
 * @param filename  server file name, e.g. {@code disk.img.fidx}
 * @param cryptMode how the file is protected
 * @param size      bytes (see above), >= 0
 * @param csum      32-byte checksum
 */
public record FileEntry(String filename, CryptMode cryptMode, long size, Digest csum) {
    public FileEntry {
        Objects.requireNonNull(filename, "filename");
        Objects.requireNonNull(cryptMode, "cryptMode");
        Objects.requireNonNull(csum, "csum");
        if (size < 0) {
            throw new IllegalArgumentException("file size of '" + filename + "' must not be negative: " + size);
        }
    }
}
