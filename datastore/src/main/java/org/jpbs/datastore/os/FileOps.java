package org.jpbs.datastore.os;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The file operations the directory chunk store and garbage collection perform on chunk files:
 * one small seam so that tests can inject faults (I/O errors, short writes, crash points, bit
 * flips on read) without touching the code under test. {@link #real()} is the operating system;
 * it adds no indirection beyond one interface call. Errors follow {@code java.nio}:
 * {@link java.nio.file.NoSuchFileException} for a missing file.
 */
public interface FileOps {
    /** Reads a whole file. */
    byte[] readAllBytes(Path file) throws IOException;

    /**
     * Writes {@code data[off, off+len)} to a new {@code <target name>.tmp_XXXXXX} next to
     * {@code target}, fsync'd if asked ({@link AtomicFiles#writeTemp}).
     *
     * @return the temporary file
     */
    Path writeTemp(Path target, byte[] data, int off, int len, boolean fsync) throws IOException;

    /** Renames a file ({@code rename(2)}: atomic, replaces an existing target). */
    void rename(Path from, Path to) throws IOException;

    /**
     * Makes {@code link} a hard link to {@code existing} ({@code link(2)}).
     *
     * @throws java.nio.file.FileAlreadyExistsException if {@code link} exists
     */
    void link(Path existing, Path link) throws IOException;

    /** Deletes a file (a missing file is not an error). */
    void delete(Path file) throws IOException;

    /** lstat of a file. */
    FileStat stat(Path file) throws IOException;

    /** Sets the atime to now keeping the mtime, through the open file ({@link FileTimes#touchAtimeInPlace}). */
    void touchAtimeInPlace(Path file) throws IOException;

    /** fsync of a directory (after a rename into it). */
    void fsyncDirectory(Path dir) throws IOException;

    /** The real file system. */
    static FileOps real() {
        return RealFileOps.INSTANCE;
    }
}
