/**
 * Traffic control: limits on how fast bytes or requests pass, as PBS's {@code rate-in},
 * {@code burst-in}, {@code rate-out}, {@code burst-out} of sync jobs and S3 endpoints and the
 * S3 {@code put-rate-limit} ({@code docs/sync.md}, {@code docs/s3.md}). Pure Java, no I/O.
 */
package org.jpbs.core.traffic;
