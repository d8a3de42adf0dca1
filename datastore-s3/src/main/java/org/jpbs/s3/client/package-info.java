/**
 * The object-store client: {@link org.jpbs.s3.client.ObjectStore} (what the S3
 * datastore needs: put, put-if-absent, get, head, list, delete) and its implementation on the
 * AWS SDK for Java v2 with the blocking Apache HTTP client ({@code docs/s3.md#client}):
 * path-style or virtual-hosted addressing, certificate pinning by fingerprint, retries with
 * backoff, Content-MD5 on every upload, ETag check on every download, multipart uploads,
 * rate limits.
 */
package org.jpbs.s3.client;
