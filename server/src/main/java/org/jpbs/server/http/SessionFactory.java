package org.jpbs.server.http;

import io.netty.channel.Channel;
import io.netty.handler.codec.http.FullHttpRequest;

/**
 * Opens the session behind an upgrade request ({@code docs/protocol.md#backup-upgrade}, {@code docs/protocol.md#reader-session}):
 * authenticates, validates the query parameters, checks permissions and takes the locks.
 * Runs on the event loop inside {@code prepareUpgradeResponse}, so it must be quick.
 */
public interface SessionFactory {
    /** Protocol name of the backup (writer) protocol. */
    String BACKUP_PROTOCOL = "proxmox-backup-protocol-v1";
    /** Protocol name of the reader (restore) protocol. */
    String READER_PROTOCOL = "proxmox-backup-reader-protocol-v1";

    /**
     * @param protocol the requested protocol, {@link #BACKUP_PROTOCOL} or {@link #READER_PROTOCOL}
     * @param path     the normalised request path ({@code /api2/json/backup} or {@code /api2/json/reader})
     * @param rawQuery the query string without {@code ?}
     * @param request  the upgrade request (headers for authentication)
     * @param channel  the connection
     * @return the session serving the HTTP/2 connection after the {@code 101}
     * @throws ApiException the refusal (401, 403, 400, 404) sent instead of the {@code 101}
     */
    Http2Service open(String protocol, String path, String rawQuery, FullHttpRequest request, Channel channel);
}
