/**
 * Datastores on S3-compatible object storage (PBS 4's {@code s3} datastore backend): the
 * {@code s3.cfg} endpoint config ({@code config}), the S3 client on the AWS SDK ({@code client})
 * and the object-backed chunk and snapshot-file store ({@code store}). See {@code docs/s3.md}.
 * This module is the only one below {@code server} that talks HTTP; {@code datastore} stays
 * free of {@code java.net}.
 */
package org.jpbs.s3;
