/**
 * Client side of jpbs: the backup and restore engines that turn a data source into chunks and
 * an index (and back), independent of where the chunks are stored, plus the network client.
 * The engines talk to the store only through {@link org.jpbs.core.snapshot.ChunkSink} (writing) and
 * {@link org.jpbs.core.ChunkSource} or {@link org.jpbs.client.restore.ChunkFetcher} (reading),
 * so the same code serves the local datastore of the command line and a server reached over
 * the PBS protocols ({@code org.jpbs.client.http}, {@code org.jpbs.client.remote}); the
 * hypervisor library ({@code org.jpbs.client.hypervisor}) builds on the latter. Dependencies:
 * {@code core}, Netty (HTTP/2, TLS) and Jackson.
 */
package org.jpbs.client;
