/**
 * The restore engine: turns an index (fixed or dynamic, {@code docs/formats.md#fixed-index-fidx}, {@code docs/formats.md#dynamic-index-didx}) plus
 * a {@link org.jpbs.core.ChunkSource} back into the byte stream it describes. Chunks are
 * fetched and decoded in parallel with a bounded window, verified against their digests, and
 * written at their offsets as they arrive (or in order to a stream). Zero chunks can be
 * skipped to leave holes in a sparse target.
 */
package org.jpbs.client.restore;
