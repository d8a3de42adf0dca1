/**
 * The network side of backup and restore against a PBS-compatible server ({@code docs/protocol.md#backup-session}, {@code docs/protocol.md#reader-session}, {@code docs/api.md}, {@code docs/network-client.md#command-line-against-a-server}): repository strings and credentials from the environment
 * ({@link org.jpbs.client.remote.Repository}, {@link org.jpbs.client.remote.Credentials}), the
 * REST calls and upgrades ({@link org.jpbs.client.remote.PbsClient}), the backup protocol
 * ({@link org.jpbs.client.remote.BackupClient}, with {@link org.jpbs.client.remote.RemoteBackupWriter}
 * as the {@link org.jpbs.core.snapshot.ChunkSink} of the image backup engine) and the reader protocol
 * ({@link org.jpbs.client.remote.RemoteSnapshotSource}, a chunk source with parallel fetches).
 */
package org.jpbs.client.remote;
