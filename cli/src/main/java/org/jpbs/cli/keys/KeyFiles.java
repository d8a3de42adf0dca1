package org.jpbs.cli.keys;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import org.jpbs.cli.CliContext;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.crypto.KeyConfig;
import org.jpbs.datastore.os.AtomicFiles;

/**
 * Key file locations and I/O. The default key is where the PBS client keeps it:
 * {@code $XDG_CONFIG_HOME/proxmox-backup/encryption-key.json} (default
 * {@code ~/.config/...}), the default master public key {@code master-public.pem} next to it.
 * Files are written as {@code NAME.tmp_XXXXXX} with mode 0600 and renamed into place, so a key
 * file is never seen half-written or world-readable.
 */
public final class KeyFiles {
    /** File name of the default encryption key. */
    public static final String DEFAULT_KEY = "encryption-key.json";
    /** File name of the default master public key. */
    public static final String DEFAULT_MASTER_PUBKEY = "master-public.pem";

    private KeyFiles() {}

    /** {@code $XDG_CONFIG_HOME/proxmox-backup}, else {@code ~/.config/proxmox-backup}. */
    public static Path configDir(CliContext ctx) {
        String xdg = ctx.getenv("XDG_CONFIG_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : ctx.home().resolve(".config");
        return base.resolve("proxmox-backup");
    }

    /** The default key file path (it may not exist). */
    public static Path defaultKey(CliContext ctx) {
        return configDir(ctx).resolve(DEFAULT_KEY);
    }

    /** The default master public key path (it may not exist). */
    public static Path defaultMasterPubkey(CliContext ctx) {
        return configDir(ctx).resolve(DEFAULT_MASTER_PUBKEY);
    }

    /**
     * Reads and parses a key file.
     *
     * @throws NoSuchFileException if it does not exist
     * @throws org.jpbs.core.errors.CorruptDataException naming the file if it is not a key file
     */
    public static KeyConfig load(Path path) throws IOException {
        return KeyConfig.parse(read(path), path.toString());
    }

    /**
     * Reads a whole file given by the user (key, master key, key blob); an error that the JDK
     * reports without the path (reading a directory: "Is a directory") gets the path in front.
     *
     * @throws IOException naming {@code path}
     */
    public static byte[] read(Path path) throws IOException {
        try {
            return Files.readAllBytes(path);
        } catch (java.nio.file.FileSystemException e) {
            throw e;
        } catch (IOException e) {
            throw new IOException(path + ": " + e.getMessage(), e);
        }
    }

    /**
     * Loads a key file and opens it; the passphrase (for scrypt/PBKDF2 files) comes from
     * {@code PBS_ENCRYPTION_PASSWORD} or a terminal prompt.
     *
     * @throws org.jpbs.core.errors.CryptoException on a wrong passphrase (message names the file)
     */
    public static CryptConfig open(CliContext ctx, Path path) throws IOException {
        return open(ctx, load(path), path.toString());
    }

    /** Opens a loaded key file (see {@link #open(CliContext, Path)}); {@code resource} names it in messages. */
    public static CryptConfig open(CliContext ctx, KeyConfig kc, String resource) throws IOException {
        Secrets s = new Secrets(ctx);
        return kc.decrypt(() -> s.read(Secrets.ENCRYPTION_PASSWORD, "Encryption Key Password: ", false), resource);
    }

    /**
     * Writes {@code data} to {@code path} (mode 0600, atomically), creating parent directories.
     *
     * @param replace if false and the file exists: {@link FileAlreadyExistsException}
     */
    public static void write(Path path, byte[] data, boolean replace) throws IOException {
        Path abs = path.toAbsolutePath();
        if (!replace && Files.exists(abs)) {
            throw new FileAlreadyExistsException(path.toString());
        }
        Files.createDirectories(abs.getParent());
        Path tmp = abs.resolveSibling(abs.getFileName() + ".tmp_" + AtomicFiles.randomSuffix(6));
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Files.write(tmp, data);
            if (!replace && Files.exists(abs)) {
                throw new FileAlreadyExistsException(path.toString());
            }
            Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
