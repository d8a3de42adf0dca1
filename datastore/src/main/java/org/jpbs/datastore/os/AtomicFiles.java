package org.jpbs.datastore.os;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * "Replace file" the PBS way ({@code docs/formats.md#chunk-store-chunks}, {@code docs/formats.md#datastore-layout}):
 * write {@code <name>.tmp_XXXXXX} in the target's directory, fsync it if asked, then
 * {@code rename(2)} it over the target, so readers see either the old or the complete new
 * file. Plus a recursive delete. Stateless and thread-safe.
 */
public final class AtomicFiles {
    private static final char[] ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();
    /** rw-r--r--, the mode PBS gives chunk and snapshot files (before the umask). */
    public static final FileAttribute<Set<PosixFilePermission>> FILE_0644 =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--"));

    private AtomicFiles() {}

    /** {@code n} random letters and digits, for temporary names. */
    public static String randomSuffix(int n) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        char[] c = new char[n];
        for (int i = 0; i < n; i++) {
            c[i] = ALNUM[r.nextInt(ALNUM.length)];
        }
        return new String(c);
    }

    /**
     * Writes {@code data[off, off+len)} to a new temporary file {@code <target name>.tmp_XXXXXX}
     * next to {@code target} (mode 0644 minus umask), fsyncing it if {@code fsync}. The caller
     * renames it with {@link #commit} or deletes it.
     *
     * @return the temporary file
     * @throws StorageFullException naming {@code target} if the file system is full (ENOSPC, EDQUOT)
     * @throws IOException if it cannot be written (the temporary file is removed)
     */
    public static Path writeTemp(Path target, byte[] data, int off, int len, boolean fsync) throws IOException {
        Path dir = target.getParent();
        String base = target.getFileName().toString() + ".tmp_";
        for (int attempt = 0; ; attempt++) {
            Path tmp = dir.resolve(base + randomSuffix(6));
            FileChannel ch;
            try {
                ch = FileChannel.open(tmp, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), FILE_0644);
            } catch (FileAlreadyExistsException e) {
                if (attempt < 100) {
                    continue;
                }
                throw e;
            } catch (IOException e) {
                throw StorageFullException.wrap(e, target); // no inode or directory block left
            }
            try (ch) {
                ByteBuffer buf = ByteBuffer.wrap(data, off, len);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                if (fsync) {
                    ch.force(true);
                }
            } catch (IOException e) {
                Files.deleteIfExists(tmp);
                throw StorageFullException.wrap(e, target);
            } catch (RuntimeException | Error e) {
                Files.deleteIfExists(tmp);
                throw e;
            }
            return tmp;
        }
    }

    /** Renames {@code tmp} over {@code target} ({@code rename(2)}, replacing a file). */
    public static void commit(Path tmp, Path target) throws IOException {
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
    }

    /**
     * Atomically replaces (or creates) {@code target} with {@code data}: temp file, optional
     * fsync of the file, rename, optional fsync of the directory.
     *
     * @param fsync true for {@code sync-level=file}: fsync the file before and the directory after the rename
     * @throws IOException on any failure (no temporary file is left behind)
     */
    public static void replaceFile(Path target, byte[] data, boolean fsync) throws IOException {
        Path tmp = writeTemp(target, data, 0, data.length, fsync);
        commit(tmp, target);
        if (fsync) {
            FsSync.fsyncDirectory(target.getParent());
        }
    }

    /**
     * Deletes a file or a directory tree (does not follow symlinks). A missing path is not an error.
     *
     * @throws IOException if something cannot be deleted
     */
    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException exc) throws IOException {
                if (exc instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw exc;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                if (exc != null && !(exc instanceof NoSuchFileException)) {
                    throw exc;
                }
                Files.deleteIfExists(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
