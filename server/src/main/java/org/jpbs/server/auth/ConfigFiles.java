package org.jpbs.server.auth;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.jpbs.datastore.config.ConfigVersions;
import org.jpbs.datastore.os.AtomicFiles;
import org.jpbs.datastore.os.FsSync;

/**
 * Atomic writes of the small configuration files (temp file with its final mode from the
 * start, fsync, {@code rename(2)}, fsync of the directory) and the configuration lock that
 * serialises read-modify-write cycles of {@link AuthConfig} across threads and processes
 * (a POSIX lock on {@code <config>/.auth.lck}). Stateless apart from the per-directory
 * in-process locks.
 */
final class ConfigFiles {
    /** rw------- for secrets (shadow files, the ticket key). */
    static final Set<PosixFilePermission> MODE_0600 = PosixFilePermissions.fromString("rw-------");
    /** rw-r----- for {@code user.cfg} and {@code acl.cfg}, as PBS. */
    static final Set<PosixFilePermission> MODE_0640 = PosixFilePermissions.fromString("rw-r-----");
    private static final ConcurrentHashMap<Path, ReentrantLock> LOCKS = new ConcurrentHashMap<>();

    private ConfigFiles() {}

    /** Writes {@code data} to a new {@code <name>.tmp_XXXXXX} beside {@code target} with {@code mode}, fsynced. */
    static Path writeTemp(Path target, byte[] data, Set<PosixFilePermission> mode) throws IOException {
        for (int attempt = 0; ; attempt++) {
            Path tmp = target.resolveSibling(target.getFileName() + ".tmp_" + AtomicFiles.randomSuffix(6));
            FileChannel ch;
            try {
                ch = FileChannel.open(tmp, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                        PosixFilePermissions.asFileAttribute(mode));
            } catch (FileAlreadyExistsException e) {
                if (attempt < 100) {
                    continue;
                }
                throw e;
            }
            try (ch) {
                Files.setPosixFilePermissions(tmp, mode); // exact mode regardless of the umask
                ByteBuffer b = ByteBuffer.wrap(data);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                ch.force(true);
            } catch (IOException | RuntimeException e) {
                Files.deleteIfExists(tmp);
                throw e;
            }
            return tmp;
        }
    }

    /** Replaces {@code target} atomically with {@code data} (mode {@code mode}). */
    static void replace(Path target, byte[] data, Set<PosixFilePermission> mode) throws IOException {
        Path tmp = writeTemp(target, data, mode);
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        FsSync.fsyncDirectory(target.getParent());
        ConfigVersions.open(target.getParent()).bumpAuth(); // readers (FileAuthenticator) see it at once
    }

    /** Holds the configuration lock of one directory until closed. */
    static final class Lock implements AutoCloseable {
        private final ReentrantLock local;
        private final FileChannel channel;
        private final FileLock fileLock;

        private Lock(ReentrantLock local, FileChannel channel, FileLock fileLock) {
            this.local = local;
            this.channel = channel;
            this.fileLock = fileLock;
        }

        @Override
        public void close() throws IOException {
            try {
                fileLock.release();
                channel.close();
            } finally {
                local.unlock();
            }
        }
    }

    /** Takes the exclusive configuration lock of {@code configDir} (waits for other holders). */
    static Lock lock(Path configDir) throws IOException {
        Path lockFile = configDir.toAbsolutePath().normalize().resolve(".auth.lck");
        ReentrantLock local = LOCKS.computeIfAbsent(lockFile, k -> new ReentrantLock());
        local.lock();
        try {
            FileChannel ch = FileChannel.open(lockFile, EnumSet.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
                    PosixFilePermissions.asFileAttribute(MODE_0600));
            try {
                FileLock fl = ch.lock(); // not re-entrant: nesting is a bug (OverlappingFileLockException)
                return new Lock(local, ch, fl);
            } catch (IOException | RuntimeException e) {
                ch.close();
                throw e;
            }
        } catch (IOException | RuntimeException e) {
            local.unlock();
            throw e;
        }
    }
}
