/**
 * The DataBlob container shared by {@code *.blob} files and chunk files ({@code docs/formats.md#datablob}, {@code docs/formats.md#chunks-and-digests}): encoding with optional zstd compression, CRC32 checking,
 * decoding with bounded output, encoded chunks named by the SHA-256 of their plaintext, and
 * the all-zero chunks that images use for empty regions.
 */
package org.jpbs.core.blob;
