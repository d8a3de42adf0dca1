/**
 * The image backup engine: reads a raw disk image (or block device) in fixed-size slices,
 * hashes, zero-detects and compresses them on a bounded worker pool, hands new chunks to a
 * {@link org.jpbs.core.snapshot.ChunkSink} and records every digest in a fixed index ({@code docs/formats.md#chunks-and-digests}, {@code docs/formats.md#fixed-index-fidx}). Memory stays flat: a semaphore bounds the chunk buffers in
 * flight, and no lock is held across a chunk write.
 */
package org.jpbs.client.backup;
