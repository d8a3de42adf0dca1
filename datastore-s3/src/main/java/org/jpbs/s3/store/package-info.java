/**
 * The S3 chunk store ({@link org.jpbs.s3.store.S3ChunkStore}, an implementation of
 * {@code datastore}'s {@code ChunkStore}) and its bounded local cache
 * ({@link org.jpbs.s3.store.LocalChunkCache}); object keys follow PBS's bucket
 * layout ({@link org.jpbs.s3.store.ObjectKeys}, {@code docs/s3.md#object-layout}).
 */
package org.jpbs.s3.store;
