package org.jpbs.s3.client;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import java.util.zip.CRC32C;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jpbs.core.traffic.RateLimiter;
import org.jpbs.s3.config.S3EndpointConfig;
import software.amazon.awssdk.core.exception.RetryableException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link ObjectStore} on the AWS SDK: the objects of one datastore, under {@code <prefix>/} in
 * a bucket. Every upload carries a checksum the server checks (the server refuses a damaged
 * body): {@code x-amz-checksum-crc32c}, or Content-MD5 once the server showed it ignores the
 * former, and for the parts of a multipart upload. A download is checked by the caller's test
 * (a chunk's CRC), else, or if that fails, against its ETag (MD5) for a single-part object; a
 * truncated or damaged answer is retried. Objects above the multipart threshold are uploaded
 * in parallel parts ({@code docs/s3.md#the-client}).
 */
public final class S3ObjectStore implements ObjectStore {
    private final S3Client s3;
    private final String bucket;
    private final String prefix;
    private final S3EndpointConfig cfg;
    private final S3Options options;
    private final LongAdder requests;
    private final RateLimiter putLimit;
    private final RateLimiter inLimit;
    private final RateLimiter outLimit;
    private final ExecutorService parts = Executors.newVirtualThreadPerTaskExecutor();
    /** Uploads carry x-amz-checksum-crc32c until the server shows it ignores it, then Content-MD5. */
    private volatile boolean flexChecksums = true;

    S3ObjectStore(S3Client s3, String bucket, String storePrefix, S3EndpointConfig cfg, S3Options options,
                  LongAdder requests) {
        this.s3 = s3;
        this.bucket = bucket;
        this.prefix = storePrefix.isEmpty() ? "" : storePrefix + "/";
        this.cfg = cfg;
        this.options = options;
        this.requests = requests;
        this.putLimit = RateLimiter.of(cfg.putRateLimit(), cfg.putRateLimit());
        this.inLimit = RateLimiter.of(cfg.rateIn(), cfg.burstIn());
        this.outLimit = RateLimiter.of(cfg.rateOut(), cfg.burstOut());
    }

    /** The bucket. */
    public String bucket() {
        return bucket;
    }

    /** The key prefix of this datastore, with its trailing slash ({@code <store>/}). */
    public String prefix() {
        return prefix;
    }

    @Override
    public boolean put(String key, byte[] data, boolean ifAbsent) throws IOException {
        if (ifAbsent && cfg.hasQuirk(S3EndpointConfig.QUIRK_SKIP_IF_NONE_MATCH) && head(key).isPresent()) {
            return false;
        }
        limit(putLimit, 1);
        limit(outLimit, data.length);
        if (data.length > options.multipartThreshold()) {
            if (ifAbsent && head(key).isPresent()) {
                return false;
            }
            multipart(key, data);
            return true;
        }
        boolean flex = flexChecksums;
        String crc = flex ? crc32cBase64(data) : null;
        PutObjectRequest.Builder r = PutObjectRequest.builder().bucket(bucket).key(prefix + key)
                .contentLength((long) data.length);
        if (flex) {
            r.checksumCRC32C(crc);
        } else {
            r.contentMD5(md5Base64(data, 0, data.length));
        }
        if (ifAbsent && !cfg.hasQuirk(S3EndpointConfig.QUIRK_SKIP_IF_NONE_MATCH)) {
            r.ifNoneMatch("*");
        }
        PutObjectResponse answer;
        try {
            answer = call("upload", key, () -> s3.putObject(r.build(), body(data, 0, data.length)));
        } catch (PreconditionFailed e) {
            // after a retry, the refused attempt may have followed our own write whose answer was
            // lost: the object then holds exactly our bytes
            return e.attempts > 1 && get(key).map(f -> java.util.Arrays.equals(f.data(), data)).orElse(false);
        }
        if (flex) {
            confirmChecksum(key, data, crc, answer.checksumCRC32C(), answer.eTag());
        }
        return true;
    }

    /**
     * After an upload with {@code x-amz-checksum-crc32c}: a server that checked it answers with the
     * same value. One that answers without it ignored the header: this upload is checked against
     * its ETag (MD5) instead, and the following ones carry {@code Content-MD5}.
     */
    private void confirmChecksum(String key, byte[] data, String sent, String answered, String etag) throws IOException {
        if (sent.equals(answered)) {
            return;
        }
        if (answered == null) {
            flexChecksums = false;
            String e = etag == null ? "" : etag.replace("\"", "");
            if (e.length() != 32 || e.equalsIgnoreCase(md5Hex(data))) {
                return;
            }
        }
        throw new IOException("s3: upload of " + prefix + key + " in bucket " + bucket + " was damaged: the server holds "
                + (answered == null ? "ETag " + etag : "CRC32C " + answered) + ", not the " + data.length + " bytes sent");
    }

    @Override
    public Optional<Fetched> get(String key) throws IOException {
        return get(key, null);
    }

    @Override
    public Optional<Fetched> get(String key, Predicate<byte[]> intact) throws IOException {
        ObjectStoreUnavailableException last = null;
        for (int attempt = 0; attempt < options.maxAttempts(); attempt++) {
            Downloaded r;
            try {
                r = call("download", key, () -> s3.getObject(b -> b.bucket(bucket).key(prefix + key), EXACT));
            } catch (NotFound e) {
                return Optional.empty();
            }
            byte[] data = r.data();
            if (intact != null && intact.test(data)) {
                limit(inLimit, data.length);
                return Optional.of(new Fetched(data, r.response().lastModified()));
            }
            String etag = r.response().eTag() == null ? "" : r.response().eTag().replace("\"", "");
            if (etag.length() == 32 && !etag.contains("-") && !etag.equalsIgnoreCase(md5Hex(data))) {
                last = new ObjectStoreUnavailableException("s3: download of " + prefix + key
                        + " was damaged in transit (" + data.length + " bytes, MD5 does not match the ETag)", null);
                continue;
            }
            limit(inLimit, data.length);
            return Optional.of(new Fetched(data, r.response().lastModified()));
        }
        throw last;
    }

    @Override
    public Optional<ObjectInfo> head(String key) throws IOException {
        try {
            HeadObjectResponse r = call("stat", key, () -> s3.headObject(b -> b.bucket(bucket).key(prefix + key)));
            return Optional.of(new ObjectInfo(key, r.contentLength(), r.lastModified()));
        } catch (NotFound e) {
            return Optional.empty();
        }
    }

    @Override
    public void delete(Collection<String> keys) throws IOException {
        List<String> all = new ArrayList<>(keys);
        if (cfg.hasQuirk(S3EndpointConfig.QUIRK_SINGLE_DELETE)) {
            for (String k : all) {
                call("delete", k, () -> s3.deleteObject(b -> b.bucket(bucket).key(prefix + k)));
            }
            return;
        }
        for (int i = 0; i < all.size(); i += 1000) {
            List<ObjectIdentifier> ids = new ArrayList<>();
            for (String k : all.subList(i, Math.min(all.size(), i + 1000))) {
                ids.add(ObjectIdentifier.builder().key(prefix + k).build());
            }
            var resp = call("delete", ids.size() + " objects", () -> s3.deleteObjects(b -> b.bucket(bucket)
                    .delete(Delete.builder().objects(ids).quiet(true).build())));
            if (resp.hasErrors() && !resp.errors().isEmpty()) {
                var e = resp.errors().getFirst();
                throw new IOException("s3: delete of " + e.key() + " failed: " + e.code() + " " + e.message()
                        + " (" + resp.errors().size() + " errors)");
            }
        }
    }

    @Override
    public void list(String keyPrefix, Consumer<ObjectInfo> each) throws IOException {
        String token = null;
        do {
            String t = token;
            var page = call("list", keyPrefix, () -> s3.listObjectsV2(b -> b.bucket(bucket).prefix(prefix + keyPrefix)
                    .continuationToken(t)));
            for (S3Object o : page.contents()) {
                each.accept(new ObjectInfo(o.key().substring(prefix.length()), o.size(), o.lastModified()));
            }
            token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
        } while (token != null);
    }

    @Override
    public String describe(String key) {
        return "s3://" + bucket + "/" + prefix + key;
    }

    @Override
    public long requests() {
        return requests.sum();
    }

    @Override
    public void close() {
        parts.shutdown();
        s3.close();
    }

    private void multipart(String key, byte[] data) throws IOException {
        String id = call("start multipart upload", key,
                () -> s3.createMultipartUpload(b -> b.bucket(bucket).key(prefix + key))).uploadId();
        try {
            List<Future<CompletedPart>> futures = new ArrayList<>();
            long part = options.partSize();
            for (int n = 1; (long) (n - 1) * part < data.length; n++) {
                int off = (int) ((n - 1) * part);
                int len = (int) Math.min(part, data.length - off);
                int number = n;
                futures.add(parts.submit(() -> {
                    String etag = call("upload part " + number + " of", key, () -> s3.uploadPart(b -> b.bucket(bucket)
                            .key(prefix + key).uploadId(id).partNumber(number).contentLength((long) len)
                            .contentMD5(md5Base64(data, off, len)), body(data, off, len))).eTag();
                    return CompletedPart.builder().partNumber(number).eTag(etag).build();
                }));
            }
            List<CompletedPart> done = new ArrayList<>();
            for (Future<CompletedPart> f : futures) {
                done.add(f.get());
            }
            call("complete multipart upload", key, () -> s3.completeMultipartUpload(b -> b.bucket(bucket)
                    .key(prefix + key).uploadId(id).multipartUpload(m -> m.parts(done))));
        } catch (Exception e) {
            try {
                s3.abortMultipartUpload(b -> b.bucket(bucket).key(prefix + key).uploadId(id));
            } catch (SdkException ignored) {
                // the bucket's lifecycle rules or a later GC remove an abandoned upload
            }
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            Throwable c = e instanceof java.util.concurrent.ExecutionException ? e.getCause() : e;
            if (c instanceof IOException io) {
                throw io;
            }
            throw new IOException("s3: multipart upload of " + prefix + key + " failed: " + c.getMessage(), c);
        }
    }

    /** A request body over {@code data[off, off + len)} without a copy (the SDK's fromBytes copies; a retry reads it again). */
    private static RequestBody body(byte[] data, int off, int len) {
        return RequestBody.fromContentProvider(() -> new ByteArrayInputStream(data, off, len), len,
                "application/octet-stream");
    }

    /** A downloaded body with its answer. */
    private record Downloaded(GetObjectResponse response, byte[] data) {}

    /**
     * Reads an answer's body into one array of its announced length (the SDK's toBytes grows a
     * buffer and copies it twice); a short or failed read is retried by the SDK, as with toBytes.
     */
    private static final ResponseTransformer<GetObjectResponse, Downloaded> EXACT = (response, in) -> {
        try {
            Long n = response.contentLength();
            byte[] data;
            if (n != null && n >= 0 && n <= Integer.MAX_VALUE - 8) {
                data = new byte[n.intValue()];
                int got = in.readNBytes(data, 0, data.length);
                if (got != data.length) {
                    throw new EOFException("answer ended after " + got + " of " + n + " bytes");
                }
            } else {
                data = in.readAllBytes();
            }
            return new Downloaded(response, data);
        } catch (IOException e) {
            throw RetryableException.builder().message("failed to read the answer: " + e.getMessage()).cause(e).build();
        }
    };

    private <T> T call(String what, String key, Supplier<T> op) throws IOException {
        try {
            return op.get();
        } catch (NoSuchKeyException e) {
            throw new NotFound();
        } catch (S3Exception e) {
            int s = e.statusCode();
            String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
            if (s == 404 && (code == null || code.isEmpty() || "NoSuchKey".equals(code))) {
                // a HEAD answer has no body, so no error code: "no such key" is all it can mean here
                throw new NotFound();
            }
            if (s == 412) {
                throw new PreconditionFailed(e.numAttempts() == null ? 1 : e.numAttempts());
            }
            String msg = "s3: " + what + " " + prefix + key + " in bucket " + bucket + ": HTTP " + s
                    + (code == null ? "" : " " + code);
            if (s >= 500 || s == 429 || s == 409) {
                throw new ObjectStoreUnavailableException(couldNot(what, key) + ": HTTP " + s
                        + (code == null ? "" : " " + code) + " after " + options.maxAttempts() + " attempts", e);
            }
            throw new IOException(msg, e);
        } catch (SdkClientException e) {
            throw new ObjectStoreUnavailableException(couldNot(what, key) + " after " + options.maxAttempts()
                    + " attempts: " + clientError(e), e);
        }
    }

    /**
     * The SDK's message, except for a certificate the JDK could not check against the trusted CAs,
     * whose message names JDK-internal classes ("PKIX path building failed: sun.security...").
     */
    static String clientError(SdkClientException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.security.cert.CertPathBuilderException
                    || t instanceof java.security.cert.CertPathValidatorException) {
                return "the endpoint's TLS certificate is not signed by a trusted certificate authority"
                        + " (for a self-signed certificate, set the endpoint's fingerprint)";
            }
        }
        return e.getMessage();
    }

    /** "could not read|write|delete s3://bucket/prefix/key" for a failed operation. */
    private String couldNot(String what, String key) {
        String verb = switch (what) {
            case "download", "stat", "list" -> "read";
            case "delete" -> "delete";
            default -> "write";
        };
        return "could not " + verb + " " + describe(key);
    }

    private static void limit(RateLimiter l, long units) throws java.io.InterruptedIOException {
        if (l != null) {
            l.acquire(units);
        }
    }

    private static byte[] md5(byte[] d, int off, int len) {
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            md.update(d, off, len);
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** CRC32C of the whole array, big-endian, base64: the value of {@code x-amz-checksum-crc32c}. */
    static String crc32cBase64(byte[] d) {
        CRC32C c = new CRC32C();
        c.update(d, 0, d.length);
        long v = c.getValue();
        return Base64.getEncoder().encodeToString(new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v});
    }

    private static String md5Base64(byte[] d, int off, int len) {
        return Base64.getEncoder().encodeToString(md5(d, off, len));
    }

    private static String md5Hex(byte[] d) {
        return HexFormat.of().formatHex(md5(d, 0, d.length));
    }

    /** 404 inside {@link #call}. */
    private static final class NotFound extends IOException {
        private static final long serialVersionUID = 1L;
    }

    /** 412 inside {@link #call}. */
    private static final class PreconditionFailed extends IOException {
        private static final long serialVersionUID = 1L;
        final int attempts;

        PreconditionFailed(int attempts) {
            this.attempts = attempts;
        }
    }
}
