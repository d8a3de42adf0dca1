package org.jpbs.server.notify;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.jpbs.datastore.config.ConfigLock;
import org.jpbs.datastore.os.AtomicFiles;

/**
 * Read-modify-write of the notification files under {@code <config>/.notifications.lck}
 * ({@code docs/notifications.md#files}): {@code notifications.cfg} mode 0640,
 * {@code notifications-priv.cfg} mode 0600 (created with that mode, never wider), each replaced
 * atomically. Stateless.
 */
public final class NotificationStore {
    private static final Set<PosixFilePermission> PUBLIC = PosixFilePermissions.fromString("rw-r-----");
    private static final Set<PosixFilePermission> PRIVATE = PosixFilePermissions.fromString("rw-------");

    private NotificationStore() {}

    /**
     * Applies {@code edit} to the current files and writes the result.
     *
     * @return the new config
     * @throws IOException              if the files cannot be read or written
     * @throws IllegalArgumentException from the edit (nothing is written)
     */
    public static NotificationConfig update(Path configDir, UnaryOperator<NotificationConfig> edit) throws IOException {
        Files.createDirectories(configDir);
        try (ConfigLock lock = ConfigLock.acquire(configDir.resolve(".notifications.lck"))) {
            NotificationConfig old = NotificationConfig.load(configDir);
            NotificationConfig now = edit.apply(old);
            if (!now.privateText().equals(old.privateText()) || !Files.exists(configDir.resolve(NotificationConfig.PRIV_FILE))) {
                replace(configDir.resolve(NotificationConfig.PRIV_FILE), now.privateText(), PRIVATE);
            }
            replace(configDir.resolve(NotificationConfig.FILE), now.publicText(), PUBLIC);
            return now;
        }
    }

    private static void replace(Path target, String text, Set<PosixFilePermission> mode) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp_" + AtomicFiles.randomSuffix(6));
        try (FileChannel ch = FileChannel.open(tmp, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(mode))) {
            Files.setPosixFilePermissions(tmp, mode);
            ByteBuffer b = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
    }
}
