/**
 * Chunk stores for tests: {@link org.jpbs.testkit.chunks.InMemoryChunkStore}, the contract suite
 * {@link org.jpbs.testkit.chunks.ChunkStoreContract} every
 * {@link org.jpbs.datastore.chunks.ChunkStore} implementation runs, and seeded chunk builders
 * ({@link org.jpbs.testkit.chunks.TestChunks}).
 */
package org.jpbs.testkit.chunks;
