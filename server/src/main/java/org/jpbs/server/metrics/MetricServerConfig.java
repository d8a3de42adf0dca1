package org.jpbs.server.metrics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jpbs.datastore.config.SectionConfigText;
import org.jpbs.datastore.config.SectionConfigText.Section;

/**
 * {@code metricserver.cfg} ({@code docs/metrics.md#metric-servers}) as PBS writes it:
 * {@code influxdb-http: <name>} with {@code url}, {@code organization} (default
 * {@code proxmox}), {@code bucket} (default {@code proxmox}), {@code token},
 * {@code max-body-size} (default 25000000), {@code verify-tls} (default true), {@code enable}
 * (default true), {@code comment}; {@code influxdb-udp: <name>} with {@code host}
 * ({@code host:port}), {@code mtu} (default 1500), {@code enable}, {@code comment}.
 */
public final class MetricServerConfig {
    /** The file name in the config directory. */
    public static final String FILE = "metricserver.cfg";

    /** An InfluxDB v2 HTTP server. */
    public record Http(String name, String url, String organization, String bucket, String token, long maxBodySize,
                       boolean verifyTls) {}

    /** An InfluxDB UDP listener. */
    public record Udp(String name, String host, int port, int mtu) {}

    private final List<Http> http;
    private final List<Udp> udp;

    private MetricServerConfig(List<Http> http, List<Udp> udp) {
        this.http = List.copyOf(http);
        this.udp = List.copyOf(udp);
    }

    /**
     * Parses the file's text; disabled servers are left out.
     *
     * @throws IllegalArgumentException {@code "metricserver.cfg: <type> '<name>': ..."} on a bad entry
     */
    public static MetricServerConfig parse(String text) {
        List<Http> http = new ArrayList<>();
        List<Udp> udp = new ArrayList<>();
        for (Section s : SectionConfigText.parse(text, FILE).sections()) {
            String at = FILE + ": " + s.type() + " '" + s.id() + "': ";
            if (!bool(s.get("enable"), true, at + "enable")) {
                continue;
            }
            switch (s.type()) {
                case "influxdb-http" -> {
                    if (s.get("url") == null) {
                        throw new IllegalArgumentException(at + "missing url");
                    }
                    http.add(new Http(s.id(), s.get("url"), or(s.get("organization"), "proxmox"), or(s.get("bucket"), "proxmox"),
                            s.get("token"), number(s.get("max-body-size"), 25_000_000, at + "max-body-size"),
                            bool(s.get("verify-tls"), true, at + "verify-tls")));
                }
                case "influxdb-udp" -> {
                    String h = s.get("host");
                    int colon = h == null ? -1 : h.lastIndexOf(':');
                    if (colon <= 0) {
                        throw new IllegalArgumentException(at + "host must be HOST:PORT");
                    }
                    String host = h.substring(0, colon).replaceAll("^\\[|]$", "");
                    udp.add(new Udp(s.id(), host, (int) number(h.substring(colon + 1), -1, at + "host port"),
                            (int) number(s.get("mtu"), 1500, at + "mtu")));
                }
                default -> throw new IllegalArgumentException(FILE + ": unknown section type '" + s.type() + "'");
            }
        }
        return new MetricServerConfig(http, udp);
    }

    /** Reads {@code <configDir>/metricserver.cfg}; a missing file has no servers. */
    public static MetricServerConfig load(Path configDir) throws IOException {
        try {
            return parse(Files.readString(configDir.resolve(FILE), StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            return new MetricServerConfig(List.of(), List.of());
        }
    }

    /** Enabled HTTP servers. */
    public List<Http> http() {
        return http;
    }

    /** Enabled UDP servers. */
    public List<Udp> udp() {
        return udp;
    }

    private static String or(String v, String def) {
        return v == null ? def : v;
    }

    private static long number(String v, long def, String what) {
        if (v == null) {
            return def;
        }
        try {
            long n = Long.parseLong(v);
            if (n <= 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + ": '" + v + "' is not a positive number", e);
        }
    }

    private static boolean bool(String v, boolean def, String what) {
        if (v == null) {
            return def;
        }
        return switch (v.toLowerCase(java.util.Locale.ROOT)) {
            case "1", "true", "yes", "on" -> true;
            case "0", "false", "no", "off" -> false;
            default -> throw new IllegalArgumentException(what + ": '" + v + "' is not a boolean");
        };
    }
}
