package org.jpbs.server;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * What a {@link JpbsServer} needs to start.
 *
 * @param configDir  directory for {@code proxy.pem}/{@code proxy.key}, {@code datastore.cfg}, the
 *                   auth files and the task logs ({@code log/}); created if missing
 * @param datastores extra datastores besides those of {@code datastore.cfg} (e.g. from
 *                   {@code jpbs serve --datastore}): name (SAFE_ID, 3..32 characters) to its root
 *                   directory; each must already be a datastore (have a {@code .chunks} directory);
 *                   a name in {@code datastore.cfg} wins
 * @param bind       address to listen on (e.g. {@code 127.0.0.1}, {@code ::}); null or empty
 *                   for every address
 * @param port       TCP port; {@link #DEFAULT_PORT} is 8007, 0 picks a free one
 */
public record ServerConfig(Path configDir, Map<String, Path> datastores, String bind, int port) {
    /** The PBS port ({@code docs/protocol.md#transport}). */
    public static final int DEFAULT_PORT = 8007;

    /** Validates and copies the map. */
    public ServerConfig {
        Objects.requireNonNull(configDir, "configDir");
        datastores = Map.copyOf(datastores);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
    }

    /** All addresses, port 8007. */
    public static ServerConfig of(Path configDir, Map<String, Path> datastores) {
        return new ServerConfig(configDir, datastores, null, DEFAULT_PORT);
    }
}
