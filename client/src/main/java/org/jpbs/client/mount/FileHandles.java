package org.jpbs.client.mount;

/**
 * The open-file half of an {@link ArchiveTree} that both trees share: {@link #open} hands out
 * a handle for a byte range of an archive stream, {@link #read} and {@link #release} use it.
 */
abstract class FileHandles implements ArchiveTree {
    final OpenFiles files = new OpenFiles();

    @Override
    public final int read(long handle, long offset, byte[] b, int off, int len) throws java.io.IOException {
        return files.read(handle, offset, b, off, len);
    }

    @Override
    public final void release(long handle) {
        files.release(handle);
    }
}
