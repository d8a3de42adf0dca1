package org.jpbs.client.remote;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Optional;

/**
 * Certificate fingerprints accepted at a prompt, in proxmox-backup-client's layout
 * ({@code ~/.config/proxmox-backup/fingerprints}): one line {@code <server> <fingerprint>} per
 * server, the server being the host name as written in the repository. Storing replaces the
 * server's line. Ours lives in {@code $XDG_CONFIG_HOME/jpbs/fingerprints}, else
 * {@code ~/.config/jpbs/fingerprints}.
 */
public final class FingerprintStore {
    private final Path file;

    /** A store in this file. */
    public FingerprintStore(Path file) {
        this.file = file;
    }

    /** The default file for an environment (see the class comment). */
    public static Path defaultFile(Map<String, String> env, Path home) {
        String cfg = env.get("XDG_CONFIG_HOME");
        Path base = cfg != null && !cfg.isEmpty() ? Path.of(cfg) : home.resolve(".config");
        return base.resolve("jpbs").resolve("fingerprints");
    }

    /** The file. */
    public Path file() {
        return file;
    }

    /** The remembered fingerprint of a server. */
    public synchronized Optional<String> load(String server) {
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String[] items = line.trim().split("\\s+");
                if (items.length == 2 && items[0].equals(server)) {
                    return Optional.of(items[1]);
                }
            }
        } catch (IOException e) {
            // missing or unreadable: nothing remembered
        }
        return Optional.empty();
    }

    /** Remembers the fingerprint of a server (replacing an older one). */
    public synchronized void store(String server, String fingerprint) throws IOException {
        StringBuilder out = new StringBuilder();
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String[] items = line.trim().split("\\s+");
                if (items.length == 2 && !items[0].equals(server)) {
                    out.append(line).append('\n');
                }
            }
        } catch (NoSuchFileException e) {
            // first entry
        }
        out.append(server).append(' ').append(fingerprint).append('\n');
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, ".fingerprints", ".tmp");
        try {
            Files.writeString(tmp, out, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
