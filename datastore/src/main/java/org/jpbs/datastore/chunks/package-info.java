/**
 * Chunk stores: the {@link org.jpbs.datastore.chunks.ChunkStore} interface every backend
 * implements (insert with the chunk insert rule, exists, touch/mark, read, listing with the last
 * use, removal of unused chunks, verify's rename of corrupt chunks), the pure
 * {@link org.jpbs.datastore.chunks.ChunkInsertRule}, the factory
 * {@link org.jpbs.datastore.chunks.ChunkStores} and the directory store
 * {@code <datastore>/.chunks/XXXX/<64-hex digest>} with its creation of the 65,536 prefix
 * directories ({@code docs/formats.md#chunk-store-chunks}, {@code docs/design.md#chunk-store}).
 */
package org.jpbs.datastore.chunks;
