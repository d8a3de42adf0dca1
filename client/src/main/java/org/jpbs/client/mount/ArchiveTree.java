package org.jpbs.client.mount;

import java.io.IOException;
import java.util.List;
import org.jpbs.core.pxar.XAttr;

/**
 * A read-only tree shown by a mount ({@code docs/pxar.md#mount}). Paths are absolute with
 * {@code /} as the separator ({@code /} is the root), as FUSE passes them; names are UTF-8.
 * Thread-safe: FUSE calls from several threads.
 */
public interface ArchiveTree extends AutoCloseable {
    /**
     * The attributes of {@code path}.
     *
     * @throws TreeException ENOENT if there is no such path
     */
    NodeAttr attr(String path) throws IOException;

    /** The names in directory {@code path} in archive order (without {@code .} and {@code ..}). */
    List<String> list(String path) throws IOException;

    /** The target of symbolic link {@code path} (EINVAL if it is none). */
    byte[] readlink(String path) throws IOException;

    /** Opens regular file {@code path} for reading; the handle is for {@link #read} and {@link #release}. */
    long open(String path) throws IOException;

    /**
     * Reads up to {@code len} bytes of an open file at {@code offset} into {@code b[off..]}:
     * fewer only at the end of the file.
     *
     * @return bytes read (0 at or past the end)
     */
    int read(long handle, long offset, byte[] b, int off, int len) throws IOException;

    /** Forgets an open file's handle. */
    void release(long handle);

    /** The xattrs of {@code path} (file capabilities and ACLs as their Linux xattrs included). */
    List<XAttr> xattrs(String path) throws IOException;

    /** Total bytes and entries for {@code statfs}, as far as known without reading the whole archive. */
    long totalBytes();

    /** Ends the chunk reads (stops read-ahead). */
    @Override
    void close();
}
