package org.jpbs.datastore.gc;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.jpbs.core.digest.Digest;
import org.jpbs.datastore.os.DirHandle;
import org.jpbs.datastore.os.FileOps;
import org.jpbs.datastore.os.FileStat;

/**
 * Every file system operation garbage collection performs, so that tests can substitute a
 * layer that ignores atime updates, refuses permissions, loses files or runs code at a chosen
 * moment. {@link #local()} is the real one. It is a {@link FileOps}: the sweep removes chunks
 * through {@link org.jpbs.datastore.chunks.DirectoryChunkStore#removeLocked} with it; the
 * chunk-file operations GC does not use default to {@link FileOps#real()}. Errors follow {@code java.nio}:
 * {@link java.nio.file.NoSuchFileException} for a vanished file,
 * {@link java.nio.file.AccessDeniedException} for a permission error.
 */
public interface GcFs extends FileOps {
    /** An open directory (confined to one thread). */
    interface Dir extends AutoCloseable {
        /** The entries except {@code .} and {@code ..}, in directory order. */
        List<DirHandle.Entry> entries() throws IOException;

        /** lstat of an entry. */
        FileStat stat(String name) throws IOException;

        @Override
        void close();
    }

    /** Touches chunk files for the mark phase (confined to one thread). */
    interface Marker extends AutoCloseable {
        /** Sets the atime of the chunk to now (mtime kept); false if the chunk does not exist. */
        boolean touch(Digest digest) throws IOException;

        /** As {@link #touch} for {@code <digest>.<n>.bad}. */
        boolean touchBad(Digest digest, int n) throws IOException;

        /** Number of atime updates ({@code utimensat} calls) made. */
        long calls();

        @Override
        void close();
    }

    /** Opens a directory for listing and stat. */
    Dir openDir(Path dir) throws IOException;

    /** Reads a whole (small) file: an index. */
    byte[] readFile(Path file) throws IOException;

    /** Opens a marker on {@code <datastore>/.chunks}. */
    Marker openMarker(Path chunksDir) throws IOException;

    /** lstat of a file. */
    @Override
    FileStat stat(Path file) throws IOException;

    /** Sets the atime to now, keeping the mtime. */
    void touchAtime(Path file) throws IOException;

    /** Sets the atime to {@code atime}, keeping the mtime. */
    void setAtime(Path file, Instant atime) throws IOException;

    /** Deletes a file (a vanished file is not an error). */
    @Override
    void delete(Path file) throws IOException;

    @Override
    default void rename(Path from, Path to) throws IOException {
        FileOps.real().rename(from, to);
    }

    @Override
    default void link(Path existing, Path link) throws IOException {
        FileOps.real().link(existing, link);
    }

    @Override
    default byte[] readAllBytes(Path file) throws IOException {
        return readFile(file);
    }

    @Override
    default Path writeTemp(Path target, byte[] data, int off, int len, boolean fsync) throws IOException {
        return FileOps.real().writeTemp(target, data, off, len, fsync);
    }

    @Override
    default void touchAtimeInPlace(Path file) throws IOException {
        FileOps.real().touchAtimeInPlace(file);
    }

    @Override
    default void fsyncDirectory(Path dir) throws IOException {
        FileOps.real().fsyncDirectory(dir);
    }

    /** Deletes a directory tree (a vanished tree is not an error). */
    void deleteTree(Path dir) throws IOException;

    /** The real file system: native calls where available ({@code readdir}, {@code statx}, {@code utimensat}). */
    static GcFs local() {
        return LocalGcFs.INSTANCE;
    }
}
