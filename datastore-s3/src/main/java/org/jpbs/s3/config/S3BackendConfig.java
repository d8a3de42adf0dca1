package org.jpbs.s3.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.jpbs.datastore.config.PropertyString;

/**
 * A datastore's {@code backend} property in {@code datastore.cfg}, PBS's
 * {@code DatastoreBackendConfig}: {@code type=filesystem|s3,client=ENDPOINT-ID,bucket=NAME
 * [,max-cache-size=SIZE]} ({@code docs/s3.md#datastore-backend}). For {@code s3} the
 * datastore's {@code path} is the local cache.
 *
 * @param type         {@code filesystem} (the default) or {@code s3}
 * @param client       the {@code s3.cfg} endpoint id (s3 only)
 * @param bucket       the bucket name (s3 only)
 * @param maxCacheSize bound of the local chunk cache in bytes, or null for the default
 */
public record S3BackendConfig(String type, String client, String bucket, Long maxCacheSize) {
    /** Backend type of a directory datastore. */
    public static final String FILESYSTEM = "filesystem";
    /** Backend type of an S3 datastore. */
    public static final String S3 = "s3";

    private static final Pattern BUCKET = Pattern.compile("[a-z0-9]([a-z0-9\\-]*[a-z0-9])?");

    /** Validates. */
    public S3BackendConfig {
        if (!FILESYSTEM.equals(type) && !S3.equals(type)) {
            throw new IllegalArgumentException("backend: type: '" + type + "' is not filesystem or s3");
        }
        if (S3.equals(type)) {
            if (client == null) {
                throw new IllegalArgumentException("backend: missing client for s3 backend");
            }
            S3EndpointConfig.checkId(client);
            if (bucket == null) {
                throw new IllegalArgumentException("backend: missing bucket for s3 backend");
            }
            checkBucket(bucket);
        }
    }

    /** True for an S3 backend. */
    public boolean isS3() {
        return S3.equals(type);
    }

    /**
     * Parses the property string (null or empty: filesystem).
     *
     * @throws IllegalArgumentException {@code "backend: ..."} naming what is wrong
     */
    public static S3BackendConfig parse(String text) {
        if (text == null || text.isBlank()) {
            return new S3BackendConfig(FILESYSTEM, null, null, null);
        }
        Map<String, String> p = PropertyString.parse("backend", text, "type");
        for (String k : p.keySet()) {
            if (!k.equals("type") && !k.equals("client") && !k.equals("bucket") && !k.equals("max-cache-size")) {
                throw new IllegalArgumentException("backend: unknown key '" + k + "'");
            }
        }
        return new S3BackendConfig(p.getOrDefault("type", FILESYSTEM), p.get("client"), p.get("bucket"),
                S3EndpointConfig.size("backend", "max-cache-size", p.get("max-cache-size")));
    }

    /** The property string as written to {@code datastore.cfg}. */
    public String format() {
        Map<String, String> m = new LinkedHashMap<>();
        if (bucket != null) {
            m.put("bucket", bucket);
        }
        if (client != null) {
            m.put("client", client);
        }
        if (maxCacheSize != null) {
            m.put("max-cache-size", maxCacheSize.toString());
        }
        m.put("type", type);
        return PropertyString.format(m);
    }

    /** Checks a bucket name (3–63 characters, lower-case letters, digits and '-', AWS's rules). */
    public static void checkBucket(String bucket) {
        if (bucket.length() < 3 || bucket.length() > 63 || !BUCKET.matcher(bucket).matches()) {
            throw new IllegalArgumentException("backend: bucket '" + bucket
                    + "': 3 to 63 characters, lower-case letters, digits and '-', starting and ending with a letter or digit");
        }
        for (String bad : new String[] {"xn--", "sthree-", "amzn-s3-demo-"}) {
            if (bucket.startsWith(bad)) {
                throw new IllegalArgumentException("backend: bucket '" + bucket + "' cannot start with '" + bad + "'");
            }
        }
        for (String bad : new String[] {"--ol-s3", ".mrap", "--x-s3"}) {
            if (bucket.endsWith(bad)) {
                throw new IllegalArgumentException("backend: bucket '" + bucket + "' cannot end with '" + bad + "'");
            }
        }
    }
}
