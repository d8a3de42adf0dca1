package org.jpbs.cli.keys;

import org.jpbs.cli.UsageException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.crypto.Fingerprint;
import org.jpbs.core.crypto.Kdf;
import org.jpbs.core.crypto.KeyConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs key}: encryption key files as the PBS client manages them ({@code docs/formats.md#key-files}). Alone it prints its usage (exit 2).
 */
@Command(name = "key", description = "Manage encryption keys (PBS key files).",
        subcommands = {KeyCommand.Create.class, KeyCommand.Show.class, KeyCommand.ChangePassphrase.class,
            KeyPaperkeyCommand.class, MasterKeyCommands.CreateMasterKey.class, MasterKeyCommands.ImportWithMasterKey.class})
public final class KeyCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    /** The key file argument, or the default key. */
    static Path keyPath(CliContext ctx, Path given) {
        return given != null ? given : KeyFiles.defaultKey(ctx);
    }

    static Kdf kdf(String text) {
        try {
            return Kdf.parse(text);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--kdf: " + e.getMessage(), e);
        }
    }

    /**
     * A key file for {@code key} protected by {@code kdf}: the passphrase comes from
     * {@code passwordVar} or a prompt (typed twice); {@code created} is kept if >= 0.
     */
    static KeyConfig protect(CliContext ctx, byte[] key, Kdf kdf, String hint, long created, String passwordVar)
            throws java.io.IOException {
        KeyConfig kc;
        if (kdf == Kdf.NONE) {
            if (hint != null) {
                throw new UsageException("--hint is not allowed with --kdf none");
            }
            kc = KeyConfig.withoutPassword(key);
        } else {
            byte[] pw = new Secrets(ctx).read(passwordVar, "Encryption Key Password: ", true);
            kc = KeyConfig.withPassphrase(key, pw, kdf).withHint(hint);
        }
        return created >= 0 ? kc.withCreated(created) : kc;
    }

    /** {@code jpbs key create [PATH] [--kdf scrypt|pbkdf2|none] [--hint TEXT]}. */
    @Command(name = "create", sortOptions = false, description = {"Create a new encryption key file.", "",
        "The passphrase comes from $PBS_ENCRYPTION_PASSWORD (or _FD, _FILE), else it is asked twice.", ""})
    public static final class Create implements Callable<Integer> {
        @Mixin
        HelpOption help;

        private final CliContext ctx;

        @Option(names = "--kdf", paramLabel = "KDF", defaultValue = "scrypt",
                description = "scrypt, pbkdf2 or none (no passphrase; default: ${DEFAULT-VALUE}).")
        String kdf;

        @Option(names = "--hint", paramLabel = "TEXT", description = "Passphrase hint stored in the key file.")
        String hint;

        @Parameters(index = "0", arity = "0..1", paramLabel = "PATH",
                description = "Output file, never overwritten (default: ~/.config/proxmox-backup/encryption-key.json).")
        Path path;

        /** Creates the command in {@code ctx}. */
        public Create(CliContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() throws Exception {
            Kdf k = kdf(kdf);
            Path target = keyPath(ctx, path);
            // never overwrite a key file (as PBS): the backups made with it would become unreadable
            if (java.nio.file.Files.exists(target, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                throw new IllegalArgumentException((path == null ? "default key " : "key file ") + target
                        + " already exists; remove it first or give another PATH");
            }
            KeyConfig kc = protect(ctx, CryptConfig.randomKey(), k, hint, -1, Secrets.ENCRYPTION_PASSWORD);
            KeyFiles.write(target, kc.toJson(), false);
            ctx.err().println("created key " + target + " (kdf " + k + ", fingerprint " + kc.fingerprint() + ")");
            return 0;
        }
    }

    /** {@code jpbs key show [PATH] [--output-format text|json]}. */
    @Command(name = "show", description = "Show a key file's kdf, times, fingerprint and hint (no passphrase needed).")
    public static final class Show implements Callable<Integer> {
        @Mixin
        HelpOption help;

        private final CliContext ctx;

        @Option(names = "--output-format", paramLabel = "FMT", defaultValue = "text", description = "text or json.")
        String format;

        @Parameters(index = "0", arity = "0..1", paramLabel = "PATH", description = "Key file (default: the default key).")
        Path path;

        /** Creates the command in {@code ctx}. */
        public Show(CliContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() throws Exception {
            Path p = keyPath(ctx, path);
            KeyConfig kc = KeyFiles.load(p);
            Fingerprint fp = kc.knownFingerprint();
            Map<String, Object> info = new LinkedHashMap<>();
            info.put("path", p.toString());
            info.put("kdf", kc.kdf().text());
            info.put("created", kc.created());
            info.put("modified", kc.modified());
            info.put("fingerprint", fp == null ? null : fp.toString());
            info.put("hint", kc.hint());
            switch (format) {
                case "json" -> {
                    ObjectNode o = new ObjectMapper().valueToTree(info);
                    ctx.out().println(o.toString());
                }
                case "text" -> {
                    for (var e : info.entrySet()) {
                        Object v = e.getValue();
                        String text = v == null ? "-" : (e.getKey().equals("created") || e.getKey().equals("modified"))
                                ? KeyConfig.formatTime((Long) v) : v.toString();
                        ctx.out().printf("%-12s %s%n", e.getKey(), text);
                    }
                }
                default -> throw new UsageException("--output-format: expected text or json, got '" + format + "'");
            }
            ctx.out().flush();
            return 0;
        }
    }

    /** {@code jpbs key change-passphrase [PATH] [--kdf ...] [--hint ...]}. */
    @Command(name = "change-passphrase", sortOptions = false, description = {"Re-encrypt a key file with a new passphrase.", "",
        "The current passphrase comes from $PBS_ENCRYPTION_PASSWORD, the new one from",
        "$" + Secrets.NEW_ENCRYPTION_PASSWORD + " (each also as _FD, _FILE), else both are asked.",
        "The key, and so its fingerprint and backups, stay the same.", ""})
    public static final class ChangePassphrase implements Callable<Integer> {
        @Mixin
        HelpOption help;

        private final CliContext ctx;

        @Option(names = "--kdf", paramLabel = "KDF", defaultValue = "scrypt",
                description = "scrypt, pbkdf2 or none for the new file (default: ${DEFAULT-VALUE}).")
        String kdf;

        @Option(names = "--hint", paramLabel = "TEXT", description = "New passphrase hint.")
        String hint;

        @Parameters(index = "0", arity = "0..1", paramLabel = "PATH", description = "Key file (default: the default key).")
        Path path;

        /** Creates the command in {@code ctx}. */
        public ChangePassphrase(CliContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() throws Exception {
            Kdf k = kdf(kdf);
            Path p = keyPath(ctx, path);
            KeyConfig old = KeyFiles.load(p);
            CryptConfig c = KeyFiles.open(ctx, old, p.toString());
            KeyConfig kc = protect(ctx, c.key(), k, hint, old.created(), Secrets.NEW_ENCRYPTION_PASSWORD);
            KeyFiles.write(p, kc.toJson(), true);
            ctx.err().println("updated key " + p + " (kdf " + k + ", fingerprint " + kc.fingerprint() + ")");
            return 0;
        }
    }
}
