/**
 * {@code s3.cfg} (S3 endpoints: address, region, credentials, certificate fingerprint, quirks,
 * rate limits) and the datastore's {@code backend} property, with PBS's names
 * ({@code docs/s3.md#configuration}).
 */
package org.jpbs.s3.config;
