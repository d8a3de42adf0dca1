/**
 * The backup (writer) protocol, {@code docs/protocol.md#backup-session}: one
 * {@link org.jpbs.server.backup.BackupSession} per upgraded connection with its index writers,
 * known-chunk set, chunk verification, upload statistics, and a snapshot that exists only once
 * {@code finish} succeeded.
 */
package org.jpbs.server.backup;
