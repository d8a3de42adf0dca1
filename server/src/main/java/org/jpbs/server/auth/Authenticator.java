package org.jpbs.server.auth;

import io.netty.handler.codec.http.HttpHeaders;
import org.jpbs.core.api.BackupNamespace;

/**
 * Authentication and the two datastore privileges the backup and reader protocols need
 * ({@code docs/protocol.md#backup-upgrade} step 1, {@code docs/protocol.md#reader-session}, {@code docs/protocol.md#authentication}, {@code docs/api.md#conventions-as-pbs}). Implementations must be
 * thread-safe and fast: they run on the event loop while an upgrade is prepared.
 */
public interface Authenticator {
    /**
     * Authenticates a request from its headers ({@code Authorization: PBSAPIToken ...} or a
     * ticket cookie).
     */
    AuthResult authenticate(HttpHeaders headers);

    /** True if {@code authid} has {@code Datastore.Backup} on {@code /datastore/<store>[/<ns>...]}. */
    boolean canBackup(String authid, String store, BackupNamespace ns);

    /** True if {@code authid} has {@code Datastore.Read} on {@code /datastore/<store>[/<ns>...]}. */
    boolean canRead(String authid, String store, BackupNamespace ns);
}
