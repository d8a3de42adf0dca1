package org.jpbs.client.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The login ticket cache, in the layout proxmox-backup-client uses for its own
 * ({@code $XDG_RUNTIME_DIR/proxmox-backup/tickets}): one JSON object
 * {@code {"<server>": {"<user>": {"timestamp": <epoch>, "ticket": "PBS:...", "token": "<CSRF>"}}}},
 * file mode 0600, replaced atomically. An entry is used while it is younger than the ticket
 * lifetime (two hours) less a minute; storing drops the expired ones. Thread-safe per process
 * (synchronized), last writer wins across processes, as in PBS.
 */
public final class TicketCache {
    /** PBS's ticket lifetime in seconds (2 h). */
    public static final long TICKET_LIFETIME = 7200;
    /** An entry is reused while younger than this. */
    public static final long USABLE_AGE = TICKET_LIFETIME - 60;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One cached login. */
    public record Entry(long timestamp, String ticket, String csrfToken) {}

    private final Path file;
    private final LongSupplier clock;

    /**
     * @param file  the cache file (its directory is created with mode 0700 when storing)
     * @param clock seconds since the epoch
     */
    public TicketCache(Path file, LongSupplier clock) {
        this.file = file;
        this.clock = clock;
    }

    /** A cache with the system clock. */
    public TicketCache(Path file) {
        this(file, () -> System.currentTimeMillis() / 1000);
    }

    /**
     * Where the cache lives for an environment: {@code $XDG_RUNTIME_DIR/jpbs/tickets}, else
     * {@code ~/.cache/jpbs/tickets}.
     */
    public static Path defaultFile(Map<String, String> env, Path home) {
        String rt = env.get("XDG_RUNTIME_DIR");
        Path base = rt != null && !rt.isEmpty() ? Path.of(rt) : home.resolve(".cache");
        return base.resolve("jpbs").resolve("tickets");
    }

    /** The cache file. */
    public Path file() {
        return file;
    }

    /** A usable (not expired) entry for this server and user. */
    public synchronized Optional<Entry> load(String server, String user) {
        JsonNode u = read().path(server).path(user);
        if (!u.isObject() || !u.path("timestamp").canConvertToLong() || !u.path("ticket").isTextual()
                || !u.path("token").isTextual()) {
            return Optional.empty();
        }
        long ts = u.path("timestamp").asLong();
        if (clock.getAsLong() - ts >= USABLE_AGE) {
            return Optional.empty();
        }
        return Optional.of(new Entry(ts, u.path("ticket").asText(), u.path("token").asText()));
    }

    /** Stores a fresh login and drops expired entries. */
    public synchronized void store(String server, String user, String ticket, String csrfToken) throws IOException {
        long now = clock.getAsLong();
        ObjectNode data = read();
        ObjectNode s = data.path(server).isObject() ? (ObjectNode) data.get(server) : data.putObject(server);
        ObjectNode e = s.putObject(user);
        e.put("timestamp", now);
        e.put("ticket", ticket);
        e.put("token", csrfToken);
        ObjectNode kept = JSON.createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = data.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> srv = it.next();
            for (Iterator<Map.Entry<String, JsonNode>> ut = srv.getValue().fields(); ut.hasNext(); ) {
                Map.Entry<String, JsonNode> usr = ut.next();
                JsonNode t = usr.getValue().path("timestamp");
                if (t.canConvertToLong() && now - t.asLong() < USABLE_AGE) {
                    (kept.has(srv.getKey()) ? (ObjectNode) kept.get(srv.getKey()) : kept.putObject(srv.getKey()))
                            .set(usr.getKey(), usr.getValue());
                }
            }
        }
        write(kept);
    }

    /**
     * Removes the entry of this server and user (logout).
     *
     * @return true if there was one
     */
    public synchronized boolean delete(String server, String user) throws IOException {
        ObjectNode data = read();
        JsonNode s = data.path(server);
        if (!s.isObject() || !s.has(user)) {
            return false;
        }
        ((ObjectNode) s).remove(user);
        write(data);
        return true;
    }

    private ObjectNode read() {
        try {
            JsonNode n = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
            return n instanceof ObjectNode o ? o : JSON.createObjectNode();
        } catch (IOException | RuntimeException e) {
            return JSON.createObjectNode(); // missing or unreadable: as empty, as PBS
        }
    }

    private void write(ObjectNode data) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        Path tmp = Files.createTempFile(dir, ".tickets", ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Files.writeString(tmp, data.toString(), StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
