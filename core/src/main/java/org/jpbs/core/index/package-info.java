/**
 * Fixed (.fidx) and dynamic (.didx) chunk index files ({@code docs/formats.md#fixed-index-fidx}, {@code docs/formats.md#dynamic-index-didx}):
 * a 4096-byte header with magic, uuid, ctime and index checksum, then a body of digests (fixed)
 * or of end-offset/digest pairs (dynamic). Readers validate lengths and ordering and throw
 * {@link org.jpbs.core.errors.CorruptDataException} with the resource and byte offset.
 */
package org.jpbs.core.index;
