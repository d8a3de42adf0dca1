package org.jpbs.cli.s3;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** The {@code s3.cfg} properties as options, PBS's names (all optional here; create checks what it needs). */
public final class EndpointOptions {
    @Option(names = "--endpoint", paramLabel = "HOST", description = "Host name or IP address (may contain {{bucket}}. and {{region}}).")
    String endpoint;

    @Option(names = "--port", paramLabel = "PORT", description = "Port (default 443).")
    String port;

    @Option(names = "--region", paramLabel = "REGION", description = "Region (e.g. eu-central-1, auto).")
    String region;

    @Option(names = "--access-key", paramLabel = "KEY", description = "Access key id.")
    String accessKey;

    @Option(names = "--secret-key", paramLabel = "SECRET", description = "Secret access key.")
    String secretKey;

    @Option(names = "--fingerprint", paramLabel = "FP", description = "SHA-256 fingerprint of the endpoint's certificate (aa:bb:...).")
    String fingerprint;

    @Option(names = "--path-style", paramLabel = "BOOL", description = "Path-style bucket addressing (default false).")
    String pathStyle;

    @Option(names = "--put-rate-limit", paramLabel = "N", description = "Upload requests per second.")
    String putRateLimit;

    @Option(names = "--rate-in", paramLabel = "SIZE", description = "Download rate limit per second (e.g. 10MiB).")
    String rateIn;

    @Option(names = "--burst-in", paramLabel = "SIZE", description = "Download burst.")
    String burstIn;

    @Option(names = "--rate-out", paramLabel = "SIZE", description = "Upload rate limit per second.")
    String rateOut;

    @Option(names = "--burst-out", paramLabel = "SIZE", description = "Upload burst.")
    String burstOut;

    @Option(names = "--provider-quirks", paramLabel = "QUIRK", split = ",",
            description = "skip-if-none-match-header, delete-objects-via-delete-object.")
    List<String> providerQuirks;

    /** The options given, as {@code s3.cfg} properties. */
    Map<String, String> given() {
        Map<String, String> m = new LinkedHashMap<>();
        put(m, "endpoint", endpoint);
        put(m, "port", port);
        put(m, "region", region);
        put(m, "access-key", accessKey);
        put(m, "secret-key", secretKey);
        put(m, "fingerprint", fingerprint);
        put(m, "path-style", pathStyle);
        put(m, "put-rate-limit", putRateLimit);
        put(m, "rate-in", rateIn);
        put(m, "burst-in", burstIn);
        put(m, "rate-out", rateOut);
        put(m, "burst-out", burstOut);
        if (providerQuirks != null) {
            m.put("provider-quirks", String.join(",", providerQuirks));
        }
        return m;
    }

    private static void put(Map<String, String> m, String k, String v) {
        if (v != null) {
            m.put(k, v);
        }
    }
}
