/**
 * {@code jpbs s3 endpoint create|list|update|remove}: the S3 endpoints of {@code s3.cfg}, with
 * PBS's option names ({@code docs/s3.md#s3cfg}).
 */
package org.jpbs.cli.s3;
