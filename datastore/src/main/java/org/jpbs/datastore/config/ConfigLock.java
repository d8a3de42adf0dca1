package org.jpbs.datastore.config;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The exclusive lock that serialises read-modify-write cycles of one config file across
 * threads (an in-process lock per lock file) and processes (a POSIX lock on the lock file,
 * e.g. {@code <config>/.datastore.lck}). Held until {@link #close()}; not re-entrant.
 */
public final class ConfigLock implements AutoCloseable {
    private static final ConcurrentHashMap<Path, ReentrantLock> LOCAL = new ConcurrentHashMap<>();

    private final ReentrantLock local;
    private final FileChannel channel;
    private final FileLock fileLock;

    private ConfigLock(ReentrantLock local, FileChannel channel, FileLock fileLock) {
        this.local = local;
        this.channel = channel;
        this.fileLock = fileLock;
    }

    /**
     * Waits for and takes the lock (the lock file is created if missing).
     *
     * @throws IOException if the lock file cannot be opened or locked
     */
    public static ConfigLock acquire(Path lockFile) throws IOException {
        Path key = lockFile.toAbsolutePath().normalize();
        ReentrantLock local = LOCAL.computeIfAbsent(key, k -> new ReentrantLock());
        local.lock();
        try {
            FileChannel ch = FileChannel.open(key, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            try {
                return new ConfigLock(local, ch, ch.lock());
            } catch (IOException | RuntimeException e) {
                ch.close();
                throw e;
            }
        } catch (IOException | RuntimeException e) {
            local.unlock();
            throw e;
        }
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
