package org.jpbs.server.auth;

import io.netty.handler.codec.http.HttpHeaders;
import org.jpbs.core.api.BackupNamespace;

/**
 * Authentication and the two datastore privileges the backup and reader protocols need
 * (spec {@code pbs-protocol.md} §2.1 step 1, §3, §4.2, §4.3). Implementations must be
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
