/**
 * Verify ({@code docs/gc.md#verify}): checks every file of a snapshot against its
 * manifest, decodes every chunk and compares its SHA-256 with its name (encrypted chunks: the
 * CRC only), renames corrupt chunks to {@code <digest>.<n>.bad}, and records
 * {@code verify_state} in the manifest. Chunks are read in parallel, optionally in inode order;
 * the result is a typed {@link org.jpbs.datastore.verify.VerifyReport}.
 */
package org.jpbs.datastore.verify;
