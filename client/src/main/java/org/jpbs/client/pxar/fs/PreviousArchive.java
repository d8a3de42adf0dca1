package org.jpbs.client.pxar.fs;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.jpbs.core.pxar.Metadata;
import org.jpbs.core.pxar.XAttr;

/**
 * What {@code --change-detection-mode metadata} needs of the group's previous snapshot
 * ({@code docs/pxar.md#metadata-change-detection}): the files of its metadata archive, and a way
 * to take a range of its payload stream over into the new payload stream as whole chunks.
 */
public interface PreviousArchive {
    /**
     * A regular file of the previous metadata archive.
     *
     * @param metadata      its metadata as archived
     * @param size          its size
     * @param payloadOffset where its PAYLOAD item (header) starts in the previous payload stream
     */
    record File(Metadata metadata, long size, long payloadOffset) {
        /**
         * True if a file with {@code meta} and {@code size} may take this file's payload: same
         * size and the same metadata in every field pxar stores (mode, flags, owner, mtime with
         * nanoseconds, xattrs, ACLs, file capability, project id), as pxar's reuse check.
         */
        public boolean matches(Metadata meta, long size) {
            return this.size == size && sameMetadata(metadata, meta);
        }
    }

    /**
     * Where reused payload went in the new payload stream.
     *
     * @param offset   the new payload offset of the range's first byte
     * @param appended bytes appended to the payload stream by the reuse (0 if the chunks were
     *                 already there)
     */
    record Placement(long offset, long appended) {}

    /** The previous archive's regular file at {@code path} (no leading slash), or null if there is none. */
    File file(byte[] path) throws IOException;

    /**
     * Takes the previous payload range {@code [start, end)} over into the new payload stream as
     * the whole chunks covering it, unless the bytes of those chunks outside the range (padding)
     * are too many.
     *
     * @param continued the next range starts at {@code end} (a long run cut only to bound the
     *                  files held): the last chunk's bytes after {@code end} are not padding
     * @return where the range now is, or null if the files are to be read again
     */
    Placement reuse(long start, long end, boolean continued) throws IOException;

    /** Deep equality of two entries' metadata (arrays compared by content). */
    static boolean sameMetadata(Metadata a, Metadata b) {
        if (!a.stat().equals(b.stat()) || !a.acl().equals(b.acl()) || a.quotaProjectId() != b.quotaProjectId()
                || !Arrays.equals(a.fcaps(), b.fcaps())) {
            return false;
        }
        List<XAttr> x = a.xattrs();
        List<XAttr> y = b.xattrs();
        if (x.size() != y.size()) {
            return false;
        }
        for (int i = 0; i < x.size(); i++) {
            if (!Arrays.equals(x.get(i).name(), y.get(i).name()) || !Arrays.equals(x.get(i).value(), y.get(i).value())) {
                return false;
            }
        }
        return true;
    }
}
