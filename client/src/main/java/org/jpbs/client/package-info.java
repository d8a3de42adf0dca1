/**
 * Client side of jpbs: the backup and restore engines that turn a data source into chunks and
 * an index (and back), independent of where the chunks are stored. The engines talk to the
 * store only through {@link org.jpbs.client.ChunkSink} (writing) and
 * {@link org.jpbs.core.ChunkSource} (reading), so the same code serves the local datastore
 * used by the command line and, later, the network client. This module depends on
 * {@code core} only.
 */
package org.jpbs.client;
