package org.jpbs.datastore.snapshot;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Set;
import org.jpbs.datastore.lock.DirLock;
import org.jpbs.datastore.lock.LockedException;
import org.jpbs.datastore.os.AtomicFiles;

/**
 * File operations on a group directory {@code <ns dir>/<type>/<id>} ({@code docs/formats.md#datastore-layout}): creating it, its {@code owner} file ({@code "<authid>\n"},
 * created with O_EXCL), removing it when it holds no snapshots, and removing stale hidden
 * temp directories.
 */
final class GroupDirs {
    private GroupDirs() {}

    /** What {@link #create} made: the group directory and/or its type directory. */
    record Created(boolean group, boolean typeDir) {}

    /**
     * Creates the group directory (and the type directory) if missing; tolerates concurrent
     * creation and retries if a type directory vanishes under it (an aborting writer).
     */
    static Created create(Path groupDir) throws IOException {
        Path typeDir = groupDir.getParent();
        boolean createdType = false;
        for (int attempt = 0; !Files.isDirectory(groupDir); attempt++) {
            try {
                if (!Files.isDirectory(typeDir)) {
                    try {
                        Files.createDirectory(typeDir);
                        createdType = true;
                    } catch (FileAlreadyExistsException e) {
                        // created concurrently
                    }
                }
                Files.createDirectory(groupDir);
                return new Created(true, createdType);
            } catch (FileAlreadyExistsException e) {
                break;
            } catch (NoSuchFileException e) {
                if (attempt >= 3) {
                    throw e;
                }
            }
        }
        return new Created(false, createdType);
    }

    /** The owner (first line of {@code owner}, trimmed), or null if there is no owner file. */
    static String readOwner(Path groupDir) throws IOException {
        try {
            String s = Files.readString(groupDir.resolve(DatastoreLayout.OWNER), StandardCharsets.UTF_8);
            int nl = s.indexOf('\n');
            return (nl >= 0 ? s.substring(0, nl) : s).trim();
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** Creates {@code owner} with O_EXCL holding {@code "<owner>\n"} (mode 0644); false if it exists. */
    static boolean writeOwner(Path groupDir, String owner) throws IOException {
        Path file = groupDir.resolve(DatastoreLayout.OWNER);
        SeekableByteChannel ch;
        try {
            ch = Files.newByteChannel(file, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                    AtomicFiles.FILE_0644);
        } catch (FileAlreadyExistsException e) {
            return false;
        } catch (IOException e) {
            throw org.jpbs.datastore.os.StorageFullException.wrap(e, file);
        }
        try (ch) {
            ByteBuffer b = ByteBuffer.wrap((owner + "\n").getBytes(StandardCharsets.UTF_8));
            while (b.hasRemaining()) {
                ch.write(b);
            }
            return true;
        } catch (IOException e) {
            Files.deleteIfExists(file); // ours (O_EXCL): never leave an empty or partial owner behind
            throw org.jpbs.datastore.os.StorageFullException.wrap(e, file);
        }
    }

    /**
     * Removes the group directory if it holds nothing but the names in {@code removable}
     * (which are deleted with it), then the type directory too if {@code typeDirToo} and it
     * is empty. Anything else in the group (snapshots, temp dirs, foreign files) keeps it.
     */
    static void removeIfOnly(Path groupDir, Set<String> removable, boolean typeDirToo) throws IOException {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(groupDir)) {
            for (Path p : s) {
                if (!removable.contains(p.getFileName().toString())) {
                    return;
                }
            }
        } catch (NoSuchFileException e) {
            return;
        }
        for (String name : removable) {
            Files.deleteIfExists(groupDir.resolve(name));
        }
        try {
            Files.deleteIfExists(groupDir);
            if (typeDirToo) {
                Files.deleteIfExists(groupDir.getParent());
            }
        } catch (DirectoryNotEmptyException e) {
            // something appeared meanwhile: leave it
        }
    }

    /**
     * Removes the group with its {@code owner} and {@code notes} if it has no snapshots left and
     * nobody (this JVM or another process, e.g. a backup writer) holds the group lock.
     */
    static void removeIfEmpty(Path groupDir, String what) throws IOException {
        try (DirLock _ = DirLock.exclusive(groupDir, what, "group removal")) {
            removeIfOnly(groupDir, Set.of(DatastoreLayout.OWNER, DatastoreLayout.NOTES), false);
        } catch (LockedException | NoSuchFileException e) {
            // a writer is about to add a snapshot, or the group is gone already
        }
    }

    /**
     * Removes hidden {@code .tmp-*} directories of the group whose mtime is before {@code cutoff},
     * under the exclusive group lock; skips the group if anyone holds its lock (a backup writer is
     * then using its own temp directory) and each removal in progress ({@link #tempDirInUse}).
     *
     * @return number of directories removed
     */
    static int removeStaleTempDirs(Path groupDir, Instant cutoff) throws IOException {
        try (DirLock _ = DirLock.exclusive(groupDir, "backup group " + groupDir, "temp cleanup")) {
            return removeTempDirsLocked(groupDir, cutoff);
        } catch (LockedException | NoSuchFileException e) {
            return 0;
        }
    }

    /**
     * Removes the group's {@code .tmp-*} directories older than {@code cutoff} (null: any age);
     * the caller holds the exclusive group lock, so no writer is using them. Removals in
     * progress ({@code .tmp-removing-*} still locked by their remover) are left alone.
     *
     * @return number of directories removed
     */
    static int removeTempDirsLocked(Path groupDir, Instant cutoff) throws IOException {
        int removed = 0;
        for (String name : Datastore.subdirNames(groupDir)) {
            if (!name.startsWith(DatastoreLayout.TMP_PREFIX)) {
                continue;
            }
            Path p = groupDir.resolve(name);
            try {
                if (cutoff != null
                        && !Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toInstant().isBefore(cutoff)) {
                    continue;
                }
                if (name.startsWith(REMOVING_PREFIX)) {
                    try (DirLock _ = DirLock.exclusive(p, "removed snapshot " + p, "temp cleanup")) {
                        AtomicFiles.deleteTree(p);
                    }
                } else {
                    AtomicFiles.deleteTree(p);
                }
                removed++;
            } catch (LockedException | NoSuchFileException e) {
                // a removal in progress, or gone meanwhile
            }
        }
        return removed;
    }

    /** Prefix of a snapshot directory being removed ({@link Datastore#removeSnapshot}). */
    static final String REMOVING_PREFIX = DatastoreLayout.TMP_PREFIX + "removing-";

    /**
     * True if a hidden temp directory of a group is in use right now: for a writer's
     * {@code .tmp-<time>-*} directory, if the group is locked exclusively (a backup runs); for a
     * {@code .tmp-removing-*} directory, if its remover still holds it.
     */
    static boolean tempDirInUse(Path tmpDir) throws IOException {
        String name = tmpDir.getFileName().toString();
        return DirLock.isExclusivelyLocked(name.startsWith(REMOVING_PREFIX) ? tmpDir : tmpDir.getParent());
    }
}
