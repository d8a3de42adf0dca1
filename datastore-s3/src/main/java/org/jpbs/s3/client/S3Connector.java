package org.jpbs.s3.client;

import java.net.URI;
import java.security.GeneralSecurityException;
import java.util.concurrent.atomic.LongAdder;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import org.apache.http.conn.ssl.NoopHostnameVerifier;
import org.apache.http.conn.ssl.SSLConnectionSocketFactory;
import org.jpbs.s3.config.S3EndpointConfig;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.StandardRetryStrategy;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Builds the AWS SDK client for an {@code s3.cfg} endpoint ({@code docs/s3.md#client}):
 * {@code https://<endpoint>:<port>} with {@code {{region}}} substituted and a leading
 * {@code {{bucket}}.} meaning virtual-hosted addressing; path-style when configured; the
 * fingerprint, if any, pins the server certificate (no CA or host name check, as PBS);
 * standard retry strategy with exponential backoff and jitter.
 */
public final class S3Connector {
    private S3Connector() {
    }

    /**
     * Checks {@code -Djpbs.s3.tls} when it is set, so that a server refuses to start with a bad value
     * instead of failing every request to an S3 datastore later.
     *
     * @throws IllegalStateException naming the setting and what is wrong
     */
    public static void checkTlsSetting() {
        if (!System.getProperty("jpbs.s3.tls", "").isBlank()) {
            S3Tls.useBoringSsl();
        }
    }

    /**
     * Opens the object store of one datastore: objects under {@code <storePrefix>/} in
     * {@code bucket}.
     *
     * @throws IllegalArgumentException if the endpoint cannot be used (bad TLS setup)
     */
    public static S3ObjectStore open(S3EndpointConfig cfg, String bucket, String storePrefix, S3Options o) {
        LongAdder requests = new LongAdder();
        S3Client client = client(cfg, o, requests);
        return new S3ObjectStore(client, bucket, storePrefix, cfg, o, requests);
    }

    /** The endpoint URI: scheme https, host with templates resolved, port. */
    static URI endpointUri(S3EndpointConfig cfg) {
        String host = cfg.endpoint().replace("{{region}}", cfg.effectiveRegion());
        if (host.startsWith("{{bucket}}.")) {
            host = host.substring("{{bucket}}.".length());
        }
        if (host.contains(":") && !host.startsWith("[")) {
            host = "[" + host + "]";
        }
        return URI.create("https://" + host + ":" + cfg.effectivePort());
    }

    static S3Client client(S3EndpointConfig cfg, S3Options o, LongAdder requests) {
        ApacheHttpClient.Builder http = ApacheHttpClient.builder()
                .maxConnections(o.maxConnections())
                // no "Expect: 100-continue" round trip before each upload (chunks are small)
                .expectContinueEnabled(false)
                .connectionTimeout(o.timeout())
                .socketTimeout(o.timeout());
        boolean boring = S3Tls.useBoringSsl();
        if (cfg.fingerprint() != null || boring) {
            try {
                SSLContext ctx = boring ? S3Tls.boringSslContext() : SSLContext.getInstance("TLS");
                boolean pinned = cfg.fingerprint() != null;
                // pinned: the fingerprint decides, no CA or host name check; else the system's CAs
                ctx.init(null, pinned ? new TrustManager[] {new PinnedTrust(cfg.fingerprint())} : null, null);
                http.socketFactory(new SSLConnectionSocketFactory(ctx, pinned ? NoopHostnameVerifier.INSTANCE
                        : SSLConnectionSocketFactory.getDefaultHostnameVerifier()));
            } catch (GeneralSecurityException e) {
                throw new IllegalArgumentException("s3 endpoint " + cfg.id() + ": TLS setup failed: " + e.getMessage(), e);
            }
        }
        if (o.resolver() != null) {
            http.dnsResolver(host -> o.resolver().apply(host));
        }
        StandardRetryStrategy retry = AwsRetryStrategy.standardRetryStrategy().toBuilder()
                .maxAttempts(o.maxAttempts())
                .build();
        ExecutionInterceptor counter = new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                requests.increment();
            }
        };
        return S3Client.builder()
                .httpClientBuilder(http)
                .endpointOverride(endpointUri(cfg))
                .region(Region.of(cfg.effectiveRegion()))
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(cfg.accessKey(), cfg.secretKey())))
                .forcePathStyle(cfg.pathStyle())
                // Content-MD5 is set on every upload by S3ObjectStore; no aws-chunked trailers,
                // which not every S3-compatible server understands
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_SUPPORTED)
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .retryStrategy(retry)
                        .addExecutionInterceptor(counter)
                        .build())
                .build();
    }
}
