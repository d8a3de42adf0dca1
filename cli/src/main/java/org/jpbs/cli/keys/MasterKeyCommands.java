package org.jpbs.cli.keys;

import org.jpbs.cli.UsageException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.util.List;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.crypto.KeyConfig;
import org.jpbs.core.crypto.MasterKey;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code jpbs key create-master-key} and {@code jpbs key import-with-master-key}: RSA master keys. */
public final class MasterKeyCommands {
    private MasterKeyCommands() {}

    private static char[] masterPassword(CliContext ctx, boolean confirm) throws java.io.IOException {
        byte[] pw = new Secrets(ctx).read(Secrets.MASTER_KEY_PASSWORD, "Master Key Password: ", confirm);
        return new String(pw, StandardCharsets.UTF_8).toCharArray();
    }

    /** {@code jpbs key create-master-key [--output-dir DIR]}. */
    @Command(name = "create-master-key", sortOptions = false, description = {
        "Create an RSA key pair: master-public.pem and master-private.pem (PKCS#8, AES-256-CBC).", "",
        "Give the public key to backups with --master-pubkey-file (or place it as",
        "~/.config/proxmox-backup/master-public.pem); keep the private key safe: with",
        "'key import-with-master-key' it recovers the key of any such backup.",
        "The private key's passphrase comes from $" + Secrets.MASTER_KEY_PASSWORD + " (or _FD, _FILE),",
        "else it is asked twice.", ""})
    public static final class CreateMasterKey implements Callable<Integer> {
        @Mixin
        HelpOption help;

        private final CliContext ctx;

        @Option(names = "--output-dir", paramLabel = "DIR", defaultValue = ".",
                description = "Where to write the two files (default: the current directory).")
        Path dir;

        @Option(names = "--bits", paramLabel = "N", defaultValue = "4096", hidden = true)
        int bits;

        /** Creates the command in {@code ctx}. */
        public CreateMasterKey(CliContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() throws Exception {
            if (bits < 3072) {
                throw new UsageException("--bits must be at least 3072, got " + bits);
            }
            Path pub = dir.resolve("master-public.pem");
            Path priv = dir.resolve("master-private.pem");
            // never overwrite a master key (as PBS): the private one recovers the keys of past backups
            for (Path p : List.of(pub, priv)) {
                if (Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    throw new IllegalArgumentException("master key file " + p + " already exists; remove it first or give another --output-dir");
                }
            }
            char[] pw = masterPassword(ctx, true);
            if (pw.length < KeyConfig.MIN_PASSPHRASE) {
                throw new IllegalArgumentException("passphrase is too short (at least " + KeyConfig.MIN_PASSPHRASE + " bytes)");
            }
            ctx.err().println("generating " + bits + "-bit RSA key...");
            KeyPair pair = MasterKey.generate(bits);
            KeyFiles.write(priv, MasterKey.encryptedPrivatePem(pair.getPrivate(), pw).getBytes(StandardCharsets.US_ASCII), false);
            KeyFiles.write(pub, MasterKey.publicPem(pair.getPublic()).getBytes(StandardCharsets.US_ASCII), false);
            ctx.err().println("wrote public master key to " + pub);
            ctx.err().println("wrote private master key to " + priv);
            return 0;
        }
    }

    /** {@code jpbs key import-with-master-key MASTER_KEYFILE ENCRYPTED_KEYFILE [PATH] [--kdf] [--hint]}. */
    @Command(name = "import-with-master-key", sortOptions = false, description = {
        "Recover a backup's encryption key from its rsa-encrypted.key.blob with the master private key.", "",
        "The master key's passphrase comes from $" + Secrets.MASTER_KEY_PASSWORD + ", the new key file's",
        "passphrase from $PBS_ENCRYPTION_PASSWORD (each also as _FD, _FILE), else they are asked.", ""})
    public static final class ImportWithMasterKey implements Callable<Integer> {
        @Mixin
        HelpOption help;

        private final CliContext ctx;

        @Option(names = "--kdf", paramLabel = "KDF", defaultValue = "scrypt",
                description = "scrypt, pbkdf2 or none for the new key file (default: ${DEFAULT-VALUE}).")
        String kdf;

        @Option(names = "--hint", paramLabel = "TEXT", description = "Passphrase hint stored in the key file.")
        String hint;

        @Parameters(index = "0", paramLabel = "MASTER_KEYFILE", description = "The (encrypted) PEM master private key.")
        Path masterKeyfile;

        @Parameters(index = "1", paramLabel = "ENCRYPTED_KEYFILE",
                description = "rsa-encrypted.key.blob of a snapshot (or its decoded content).")
        Path encryptedKeyfile;

        @Parameters(index = "2", arity = "0..1", paramLabel = "PATH",
                description = "Output key file (default: the default key, which must not exist yet).")
        Path path;

        /** Creates the command in {@code ctx}. */
        public ImportWithMasterKey(CliContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() throws Exception {
            var k = KeyCommand.kdf(kdf);
            Path target = KeyCommand.keyPath(ctx, path);
            if (path == null && Files.exists(target)) {
                throw new IllegalArgumentException("default key " + target
                        + " already exists; remove it first or give a PATH");
            }
            byte[] blob = KeyFiles.read(encryptedKeyfile);
            byte[] pem = KeyFiles.read(masterKeyfile);
            PrivateKey master = MasterKey.readPrivatePem(pem, masterPassword(ctx, false), masterKeyfile.toString());
            KeyConfig inner = MasterKey.decryptKey(master, blob, encryptedKeyfile.toString());
            CryptConfig c = inner.decrypt(() -> {
                throw new java.io.IOException(encryptedKeyfile + ": the recovered key file is passphrase-protected");
            }, encryptedKeyfile.toString());
            KeyConfig kc = KeyCommand.protect(ctx, c.key(), k, hint, inner.created(), Secrets.ENCRYPTION_PASSWORD);
            KeyFiles.write(target, kc.toJson(), true);
            ctx.err().println("imported key " + target + " (kdf " + k + ", fingerprint " + kc.fingerprint() + ")");
            return 0;
        }
    }
}
