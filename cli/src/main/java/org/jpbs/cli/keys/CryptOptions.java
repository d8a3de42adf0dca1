package org.jpbs.cli.keys;

import org.jpbs.cli.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import org.jpbs.cli.CliContext;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.crypto.KeyConfig;
import org.jpbs.core.crypto.MasterKey;
import org.jpbs.core.manifest.CryptMode;
import picocli.CommandLine.Option;

/**
 * The encryption options of {@code backup} and {@code restore}, named as in the PBS client:
 * {@code --keyfile}/{@code --keyfd}, {@code --crypt-mode}, {@code --master-pubkey-file}/
 * {@code --master-pubkey-fd}. Resolution follows the PBS client: without {@code --crypt-mode}
 * a given (or the default) key means {@code encrypt}; {@code --crypt-mode none} with a key is
 * an error; {@code encrypt}/{@code sign-only} need a key (given or default). The default master
 * public key is used when encrypting with a key and no other is given.
 */
public final class CryptOptions {
    @Option(names = "--keyfile", paramLabel = "PATH",
            description = "Encryption key file (default: ~/.config/proxmox-backup/encryption-key.json if it exists)."
                    + " Its passphrase: $PBS_ENCRYPTION_PASSWORD (or _FD, _FILE), else a prompt.")
    Path keyfile;

    @Option(names = "--keyfd", paramLabel = "FD", description = "Read the key file from this open file descriptor.")
    Integer keyfd;

    @Option(names = "--crypt-mode", paramLabel = "MODE",
            description = "encrypt, sign-only or none (default: encrypt if a key is available, else none).")
    String cryptMode;

    /**
     * {@code --master-pubkey-file}/{@code --master-pubkey-fd}: backup only, so a separate mixin
     * that {@code restore --help} does not show.
     */
    public static final class MasterKeyOptions {
        @Option(names = "--master-pubkey-file", paramLabel = "PATH",
                description = "RSA master public key (PEM): the key is stored encrypted with it in each encrypted backup"
                        + " (rsa-encrypted.key.blob; default: ~/.config/proxmox-backup/master-public.pem if it exists).")
        Path masterPubkeyFile;

        @Option(names = "--master-pubkey-fd", paramLabel = "FD", description = "Read the master public key from this file descriptor.")
        Integer masterPubkeyFd;
    }

    /**
     * What a command encrypts or signs with.
     *
     * @param mode       none, encrypt or sign-only
     * @param crypt      the opened key, or null for {@code none}
     * @param keyCreated creation time of the key file (epoch seconds), kept in {@code rsa-encrypted.key.blob}
     * @param master     the RSA master public key, or null
     * @param keySource  where the key came from (a path, "default key", "file descriptor N"), or null
     */
    public record Params(CryptMode mode, CryptConfig crypt, long keyCreated, PublicKey master, String keySource) {
        /** No key: unencrypted, unsigned. */
        public static final Params NONE = new Params(CryptMode.NONE, null, 0, null, null);

        /** The key chunks and blobs are encrypted with: the key in {@code encrypt} mode, else null. */
        public CryptConfig chunkKey() {
            return mode == CryptMode.ENCRYPT ? crypt : null;
        }
    }

    private record Source(String name, Path path) {}

    /**
     * Resolves the options for a backup.
     *
     * @throws IllegalArgumentException on contradicting options (PBS's texts)
     * @throws IOException if a key file cannot be read or opened (wrong passphrase, ...)
     */
    public Params forBackup(CliContext ctx) throws IOException {
        return forBackup(ctx, new MasterKeyOptions());
    }

    /**
     * Resolves the options for a backup with the master key options (see {@link #forBackup(CliContext)}).
     *
     * @throws IllegalArgumentException on contradicting options (PBS's texts)
     * @throws IOException if a key file cannot be read or opened
     */
    public Params forBackup(CliContext ctx, MasterKeyOptions masterOptions) throws IOException {
        Path masterPubkeyFile = masterOptions.masterPubkeyFile;
        Integer masterPubkeyFd = masterOptions.masterPubkeyFd;
        if (keyfile != null && keyfd != null) {
            throw new UsageException("--keyfile and --keyfd are mutually exclusive");
        }
        if (masterPubkeyFile != null && masterPubkeyFd != null) {
            throw new UsageException("--master-pubkey-file and --master-pubkey-fd are mutually exclusive");
        }
        CryptMode mode = cryptMode == null ? null : parseMode(cryptMode);
        Source key = explicitKey();
        Source master = masterPubkeyFile != null ? new Source(masterPubkeyFile.toString(), masterPubkeyFile)
                : masterPubkeyFd != null ? new Source("file descriptor " + masterPubkeyFd, fd(masterPubkeyFd)) : null;
        if (mode == CryptMode.NONE) {
            if (key != null) {
                throw new UsageException("--keyfile/--keyfd and --crypt-mode=none are mutually exclusive");
            }
            if (master != null) {
                throw new UsageException("--master-pubkey-file/--master-pubkey-fd and --crypt-mode=none are mutually exclusive");
            }
            return Params.NONE;
        }
        if (key == null) {
            key = defaultKey(ctx);
            if (key == null) {
                if (mode != null) {
                    throw new IllegalArgumentException("--crypt-mode without --keyfile and no default key file available");
                }
                if (master != null) {
                    throw new IllegalArgumentException("--master-pubkey-file/--master-pubkey-fd specified, but no key available");
                }
                return Params.NONE;
            }
        }
        if (master == null) {
            Path dm = KeyFiles.defaultMasterPubkey(ctx);
            if (Files.isRegularFile(dm)) {
                master = new Source("default master public key " + dm, dm);
            }
        }
        KeyConfig kc = KeyFiles.load(key.path());
        CryptConfig crypt = KeyFiles.open(ctx, kc, key.name());
        PublicKey pub = null;
        if (master != null) {
            pub = MasterKey.readPublicPem(KeyFiles.read(master.path()), master.name());
        }
        return new Params(mode == null ? CryptMode.ENCRYPT : mode, crypt, kc.created(), pub, key.name());
    }

    /**
     * The key for reading (restore): the given or default key, opened; null if there is none.
     * {@code --crypt-mode none} means "no key".
     *
     * @throws IOException if the key file cannot be read or opened
     */
    public CryptConfig forRestore(CliContext ctx) throws IOException {
        if (keyfile != null && keyfd != null) {
            throw new UsageException("--keyfile and --keyfd are mutually exclusive");
        }
        if (cryptMode != null && parseMode(cryptMode) == CryptMode.NONE) {
            if (keyfile != null || keyfd != null) {
                throw new UsageException("--keyfile/--keyfd and --crypt-mode=none are mutually exclusive");
            }
            return null;
        }
        Source key = explicitKey();
        if (key == null) {
            key = defaultKey(ctx);
        }
        return key == null ? null : KeyFiles.open(ctx, KeyFiles.load(key.path()), key.name());
    }

    private Source explicitKey() {
        if (keyfile != null) {
            return new Source(keyfile.toString(), keyfile);
        }
        if (keyfd != null) {
            return new Source("file descriptor " + keyfd, fd(keyfd));
        }
        return null;
    }

    private static Source defaultKey(CliContext ctx) {
        Path p = KeyFiles.defaultKey(ctx);
        return Files.isRegularFile(p) ? new Source("default key " + p, p) : null;
    }

    private static Path fd(int n) {
        return InheritedFd.path(n, "--keyfd");
    }

    private static CryptMode parseMode(String s) {
        try {
            return CryptMode.parse(s);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--crypt-mode: " + e.getMessage(), e);
        }
    }
}
