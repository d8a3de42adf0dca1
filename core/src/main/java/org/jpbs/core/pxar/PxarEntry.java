package org.jpbs.core.pxar;

import java.nio.charset.StandardCharsets;

/**
 * One event of a decoded pxar stream, in archive order ({@link PxarDecoder#next()}).
 *
 * <p>{@code path} is the raw path below the archive root without a leading slash (empty for
 * the root). {@code fileOffset} is the stream offset of the entry's FILENAME item (of its ENTRY
 * for the root): the base of hardlink offsets. Fields that do not apply to a kind are 0 / null.
 * A {@link Kind#DIRECTORY_END} event closes the directory it names, after all its children
 * (its metadata is the directory's again, so an extractor can set its times last).
 */
public record PxarEntry(Kind kind, byte[] path, Metadata metadata, long fileSize, byte[] linkTarget,
        long deviceMajor, long deviceMinor, long hardlinkOffset, long fileOffset, long payloadRef) {

    /** The kinds of events. */
    public enum Kind { DIRECTORY, FILE, SYMLINK, HARDLINK, DEVICE, FIFO, SOCKET, DIRECTORY_END }

    /** The path as {@code /a/b} for messages (invalid UTF-8 replaced). */
    public String displayPath() {
        return "/" + new String(path, StandardCharsets.UTF_8);
    }

    /** The last path component (empty for the root). */
    public byte[] name() {
        int i = path.length - 1;
        while (i >= 0 && path[i] != '/') {
            i--;
        }
        byte[] n = new byte[path.length - i - 1];
        System.arraycopy(path, i + 1, n, 0, n.length);
        return n;
    }

    /** True if the file contents are in a separate payload stream (split archive). */
    public boolean hasPayloadRef() {
        return payloadRef >= 0;
    }
}
