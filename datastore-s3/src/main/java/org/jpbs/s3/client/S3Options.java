package org.jpbs.s3.client;

import java.net.InetAddress;
import java.time.Duration;
import java.util.function.Function;

/**
 * Client tuning for {@link S3ObjectStore}; {@link #defaults()} is what the server uses.
 *
 * @param maxAttempts        attempts per request (first try plus retries, exponential backoff
 *                           with jitter), also for a download whose ETag does not match
 * @param maxConnections     parallel connections to the endpoint
 * @param multipartThreshold objects larger than this are uploaded in parts
 * @param partSize           size of one part (at least 5 MiB, S3's minimum)
 * @param timeout            connect and read timeout of one attempt
 * @param resolver           host name resolution override (tests resolve virtual-hosted
 *                           bucket names to loopback), or null for the system resolver
 */
public record S3Options(int maxAttempts, int maxConnections, long multipartThreshold, long partSize,
                        Duration timeout, Function<String, InetAddress[]> resolver) {
    /** 6 attempts, 64 connections, multipart above 32 MiB in 8 MiB parts, 60 s timeout. */
    public static S3Options defaults() {
        return new S3Options(6, 64, 32L << 20, 8L << 20, Duration.ofSeconds(60), null);
    }

    /** A copy with another multipart threshold and part size. */
    public S3Options withMultipart(long threshold, long part) {
        return new S3Options(maxAttempts, maxConnections, threshold, part, timeout, resolver);
    }

    /** A copy with another resolver. */
    public S3Options withResolver(Function<String, InetAddress[]> r) {
        return new S3Options(maxAttempts, maxConnections, multipartThreshold, partSize, timeout, r);
    }

    /** A copy with another number of attempts and timeout. */
    public S3Options withAttempts(int attempts, Duration t) {
        return new S3Options(attempts, maxConnections, multipartThreshold, partSize, t, resolver);
    }
}
