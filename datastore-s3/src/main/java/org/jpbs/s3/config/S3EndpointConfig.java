package org.jpbs.s3.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.jpbs.core.units.ByteSize;
import org.jpbs.datastore.config.PropertyString;

/**
 * One S3 endpoint of {@code s3.cfg} (section type {@code s3client}), PBS's
 * {@code S3ClientConf}: see {@code docs/s3.md#s3cfg}. Immutable; {@link #parse} validates
 * every value as PBS's schema does and names the endpoint and key in its message.
 *
 * @param id             3–32 characters, PBS's safe-id format
 * @param endpoint       host name (may contain the templates {@code {{bucket}}} and
 *                       {@code {{region}}}) or IP address, without scheme or port
 * @param port           TCP port, or null for 443
 * @param region         region name ({@code auto} or e.g. {@code eu-central-1}), or null
 * @param fingerprint    SHA-256 fingerprint of the endpoint's certificate
 *                       ({@code aa:bb:…}, 32 bytes), or null to trust the system CAs
 * @param accessKey      access key id
 * @param secretKey      secret access key
 * @param pathStyle      path-style bucket addressing ({@code https://host/bucket/key}) instead
 *                       of virtual-hosted ({@code https://bucket.host/key})
 * @param putRateLimit   PUT requests per second, or null for unlimited
 * @param rateIn         download rate limit in bytes per second, or null
 * @param burstIn        download burst in bytes, or null
 * @param rateOut        upload rate limit in bytes per second, or null
 * @param burstOut       upload burst in bytes, or null
 * @param providerQuirks {@code skip-if-none-match-header}, {@code delete-objects-via-delete-object}
 */
public record S3EndpointConfig(String id, String endpoint, Integer port, String region, String fingerprint,
                               String accessKey, String secretKey, boolean pathStyle, Long putRateLimit,
                               Long rateIn, Long burstIn, Long rateOut, Long burstOut,
                               Set<String> providerQuirks) {
    /** Section type in {@code s3.cfg}. */
    public static final String SECTION_TYPE = "s3client";
    /** Quirk: never send {@code If-None-Match: *} on uploads. */
    public static final String QUIRK_SKIP_IF_NONE_MATCH = "skip-if-none-match-header";
    /** Quirk: delete objects one by one instead of the batch {@code DeleteObjects} call. */
    public static final String QUIRK_SINGLE_DELETE = "delete-objects-via-delete-object";
    /** Region used when none is configured. */
    public static final String DEFAULT_REGION = "us-west-1";

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._\\-]*");
    private static final String LABEL = "(?:[a-zA-Z0-9](?:[a-zA-Z0-9\\-]*[a-zA-Z0-9])?)";
    private static final Pattern HOST = Pattern.compile(
            "(?:(?:" + LABEL + "|\\{\\{bucket}}|\\{\\{region}})\\.)*" + LABEL);
    private static final Pattern IPV4 = Pattern.compile("(?:\\d{1,3}\\.){3}\\d{1,3}");
    private static final Pattern IPV6 = Pattern.compile("\\[?[0-9a-fA-F:]+(?:%\\w+)?]?");
    private static final Pattern REGION = Pattern.compile("auto|[a-z]{2,}(?:-[a-z\\d]+)+");
    private static final Pattern FINGERPRINT = Pattern.compile("[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){31}");
    private static final Set<String> QUIRKS = Set.of(QUIRK_SKIP_IF_NONE_MATCH, QUIRK_SINGLE_DELETE);
    private static final List<String> KEYS = List.of("access-key", "burst-in", "burst-out", "endpoint",
            "fingerprint", "path-style", "port", "provider-quirks", "put-rate-limit", "rate-in", "rate-out",
            "region", "secret-key");

    /** Validates and copies. */
    public S3EndpointConfig {
        checkId(id);
        need(id, "endpoint", endpoint);
        if (!HOST.matcher(endpoint).matches() && !IPV4.matcher(endpoint).matches()
                && !IPV6.matcher(endpoint).matches()) {
            throw bad(id, "endpoint", "'" + endpoint + "' is not a host name or IP address (no scheme, no port)");
        }
        if (port != null && (port < 1 || port > 65535)) {
            throw bad(id, "port", port + " is not a port (1..65535)");
        }
        if (region != null && (!REGION.matcher(region).matches() || region.length() < 3 || region.length() > 32)) {
            throw bad(id, "region", "'" + region + "' is not a region name (e.g. eu-central-1 or auto)");
        }
        if (fingerprint != null && !FINGERPRINT.matcher(fingerprint).matches()) {
            throw bad(id, "fingerprint", "expected 32 colon-separated hex bytes (SHA-256)");
        }
        need(id, "access-key", accessKey);
        need(id, "secret-key", secretKey);
        for (String q : providerQuirks) {
            if (!QUIRKS.contains(q)) {
                throw bad(id, "provider-quirks", "unknown quirk '" + q + "' (known: " + String.join(", ", QUIRKS) + ")");
            }
        }
        providerQuirks = Collections.unmodifiableSet(new LinkedHashSet<>(providerQuirks));
    }

    /** The port to connect to (443 unless configured). */
    public int effectivePort() {
        return port == null ? 443 : port;
    }

    /** The configured region or {@link #DEFAULT_REGION}. */
    public String effectiveRegion() {
        return region == null ? DEFAULT_REGION : region;
    }

    /** True if the quirk is configured. */
    public boolean hasQuirk(String quirk) {
        return providerQuirks.contains(quirk);
    }

    /** Checks an endpoint id (3–32 characters, safe-id format). */
    public static void checkId(String id) {
        if (id == null || id.length() < 3 || id.length() > 32 || !ID.matcher(id).matches()) {
            throw new IllegalArgumentException("s3 endpoint id '" + id
                    + "': 3 to 32 characters, letters, digits, '_', '.', '-', not starting with '.' or '-'");
        }
    }

    /**
     * Builds an endpoint from its {@code s3.cfg} properties (or API/CLI parameters with the
     * same names).
     *
     * @throws IllegalArgumentException naming the endpoint and the key on an unknown key or bad value
     */
    public static S3EndpointConfig parse(String id, Map<String, String> p) {
        for (String k : p.keySet()) {
            if (!KEYS.contains(k) && !"comment".equals(k)) {
                throw bad(id, k, "unknown property");
            }
        }
        Set<String> quirks = new LinkedHashSet<>();
        String q = p.get("provider-quirks");
        if (q != null && !q.isBlank()) {
            for (String s : q.split("[,;\\s]+")) {
                if (!s.isEmpty()) {
                    quirks.add(s);
                }
            }
        }
        return new S3EndpointConfig(id, p.get("endpoint"),
                p.get("port") == null ? null : (int) num(id, "port", p.get("port"), 1, 65535),
                p.get("region"), p.get("fingerprint"), p.get("access-key"), p.get("secret-key"),
                p.get("path-style") != null && PropertyString.parseBool("s3 endpoint " + id + ": path-style", p.get("path-style")),
                p.get("put-rate-limit") == null ? null : num(id, "put-rate-limit", p.get("put-rate-limit"), 1, Long.MAX_VALUE),
                size(id, "rate-in", p.get("rate-in")), size(id, "burst-in", p.get("burst-in")),
                size(id, "rate-out", p.get("rate-out")), size(id, "burst-out", p.get("burst-out")), quirks);
    }

    /** The properties as written to {@code s3.cfg}, keys sorted (as PBS writes them). */
    public Map<String, String> toProperties() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("access-key", accessKey);
        put(m, "burst-in", burstIn);
        put(m, "burst-out", burstOut);
        m.put("endpoint", endpoint);
        put(m, "fingerprint", fingerprint);
        if (pathStyle) {
            m.put("path-style", "true");
        }
        put(m, "port", port);
        if (!providerQuirks.isEmpty()) {
            m.put("provider-quirks", String.join(",", providerQuirks));
        }
        put(m, "put-rate-limit", putRateLimit);
        put(m, "rate-in", rateIn);
        put(m, "rate-out", rateOut);
        put(m, "region", region);
        m.put("secret-key", secretKey);
        return m;
    }

    /** The properties without {@code secret-key}, for listings (PBS never returns the secret). */
    public Map<String, String> toPublicProperties() {
        Map<String, String> m = toProperties();
        m.remove("secret-key");
        return m;
    }

    /** Parses a byte size ({@link ByteSize}: a number with an optional unit, B, KB, KiB, MB, MiB, ...); null if absent. */
    static Long size(String id, String key, String v) {
        if (v == null || v.isBlank()) {
            return null;
        }
        try {
            return ByteSize.parse(v);
        } catch (IllegalArgumentException e) {
            throw bad(id, key, e.getMessage());
        }
    }

    private static long num(String id, String key, String v, long min, long max) {
        try {
            return PropertyString.parseInt("s3 endpoint " + id + ": " + key, v, min, max);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static void put(Map<String, String> m, String k, Object v) {
        if (v != null) {
            m.put(k, v.toString());
        }
    }

    private static void need(String id, String key, String v) {
        if (v == null || v.isBlank()) {
            throw bad(id, key, "missing");
        }
    }

    private static IllegalArgumentException bad(String id, String key, String what) {
        return new IllegalArgumentException("s3 endpoint " + id + ": " + key + ": " + what);
    }

    /** The known property names (for the CLI's update and delete lists). */
    public static List<String> keys() {
        return new ArrayList<>(KEYS);
    }
}
