package org.jpbs.client.pxar.fs;

import java.io.IOException;
import java.io.InputStream;
import org.jpbs.core.pxar.PxarDecoder;
import org.jpbs.core.pxar.PxarEntry;

/**
 * The previous metadata archive read once, front to back, in step with the walk of the tree
 * being archived ({@code docs/pxar.md#metadata-change-detection}): both are in archive order
 * (depth first, children sorted by their raw name bytes), so the regular files asked for — in
 * archive order — are found by decoding forward, each previous entry decoded once, no goodbye
 * table searched and no entry read twice. Entries of the previous archive that are gone from the
 * tree are decoded and passed over. Not thread-safe.
 */
public final class PreviousCursor implements AutoCloseable {
    private final PxarDecoder decoder;
    private PxarEntry current;
    private byte[] lastAsked;

    /** @param metadataStream the previous metadata archive ({@code NAME.mpxar}) from its start */
    public PreviousCursor(InputStream metadataStream) throws IOException {
        this.decoder = new PxarDecoder(metadataStream);
        this.current = decoder.next(); // the root
    }

    /**
     * The previous archive's regular file at {@code path} (no leading slash), or null if there is
     * none. Paths must be asked for in archive order (each after the one before).
     *
     * @throws IllegalStateException if {@code path} comes before the path asked for last
     */
    public PreviousArchive.File file(byte[] path) throws IOException {
        if (lastAsked != null && compare(path, lastAsked) < 0) {
            throw new IllegalStateException("previous archive asked out of archive order");
        }
        lastAsked = path;
        while (current != null
                && (current.kind() == PxarEntry.Kind.DIRECTORY_END || compare(current.path(), path) < 0)) {
            current = decoder.next();
        }
        if (current == null || current.kind() != PxarEntry.Kind.FILE || !current.hasPayloadRef()
                || compare(current.path(), path) != 0) {
            return null;
        }
        return new PreviousArchive.File(current.metadata(), current.fileSize(), current.payloadRef());
    }

    /**
     * Archive order of two paths below the root: component by component, names compared as
     * unsigned bytes, a directory before everything below it. A {@code '/'} ends a component, so
     * it sorts before every byte a name can hold ({@code "a/b"} before {@code "a.b"}).
     */
    static int compare(byte[] a, byte[] b) {
        int n = Math.min(a.length, b.length);
        for (int i = 0; i < n; i++) {
            if (a[i] != b[i]) {
                int x = a[i] == '/' ? -1 : a[i] & 0xff;
                int y = b[i] == '/' ? -1 : b[i] & 0xff;
                return Integer.compare(x, y);
            }
        }
        return Integer.compare(a.length, b.length);
    }

    @Override
    public void close() throws IOException {
        decoder.close();
    }
}
