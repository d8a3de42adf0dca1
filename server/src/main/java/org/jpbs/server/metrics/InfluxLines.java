package org.jpbs.server.metrics;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The InfluxDB line protocol lines PBS pushes to metric servers ({@code docs/metrics.md#line-protocol}):
 * {@code cpustat} ({@code avg1}, {@code avg5}, {@code avg15}), {@code memory}
 * ({@code memtotal}, {@code memused}, {@code swaptotal}, {@code swapused}) and {@code blockstat}
 * ({@code total}, {@code used}, {@code avail}) of the host with tags {@code object=host,host=<node>},
 * and one {@code blockstat} per datastore with the extra tag {@code datastore=<name>};
 * timestamps in nanoseconds (whole seconds). Stateless.
 */
public final class InfluxLines {
    private InfluxLines() {}

    /** The lines for one push at {@code epochSeconds}. */
    public static List<String> collect(String node, Path hostRoot, List<DatastoreUsage> stores, long epochSeconds) {
        List<String> out = new ArrayList<>();
        long ts = epochSeconds * 1_000_000_000L;
        Map<String, String> host = new LinkedHashMap<>();
        host.put("object", "host");
        host.put("host", node);
        loadavg().ifPresent(v -> out.add(line("cpustat", host, v, ts)));
        meminfo().ifPresent(v -> out.add(line("memory", host, v, ts)));
        try {
            FileStore fs = Files.getFileStore(hostRoot);
            long total = fs.getTotalSpace();
            out.add(line("blockstat", host, block(total, total - fs.getUnallocatedSpace(), fs.getUsableSpace()), ts));
        } catch (IOException e) {
            // no host disk figures
        }
        for (DatastoreUsage u : stores) {
            Map<String, String> tags = new LinkedHashMap<>(host);
            tags.put("datastore", u.name());
            out.add(line("blockstat", tags, block(u.total(), u.used(), u.avail()), ts));
        }
        return out;
    }

    private static Map<String, Number> block(long total, long used, long avail) {
        Map<String, Number> m = new LinkedHashMap<>();
        m.put("total", total);
        m.put("used", used);
        m.put("avail", avail);
        return m;
    }

    /** One line: {@code measurement,tag=v,... field=v,... timestamp}, keys and tag values escaped. */
    public static String line(String measurement, Map<String, String> tags, Map<String, Number> fields, long timestampNs) {
        StringBuilder sb = new StringBuilder(measurement.replace(",", "\\,").replace(" ", "\\ "));
        tags.forEach((k, v) -> sb.append(',').append(escape(k)).append('=').append(escape(v)));
        sb.append(' ');
        boolean first = true;
        for (Map.Entry<String, Number> f : fields.entrySet()) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            sb.append(escape(f.getKey())).append('=').append(f.getValue());
        }
        return sb.append(' ').append(timestampNs).toString();
    }

    private static String escape(String s) {
        return s.replace(",", "\\,").replace("=", "\\=").replace(" ", "\\ ");
    }

    private static java.util.Optional<Map<String, Number>> loadavg() {
        try {
            String[] p = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            Map<String, Number> m = new LinkedHashMap<>();
            m.put("avg1", Double.parseDouble(p[0]));
            m.put("avg5", Double.parseDouble(p[1]));
            m.put("avg15", Double.parseDouble(p[2]));
            return java.util.Optional.of(m);
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty();
        }
    }

    private static java.util.Optional<Map<String, Number>> meminfo() {
        try {
            Map<String, Long> kb = new LinkedHashMap<>();
            for (String l : Files.readAllLines(Path.of("/proc/meminfo"))) {
                String[] p = l.split(":\\s+");
                if (p.length == 2) {
                    kb.put(p[0], Long.parseLong(p[1].replace(" kB", "").trim()));
                }
            }
            Map<String, Number> m = new LinkedHashMap<>();
            long total = kb.get("MemTotal") * 1024;
            m.put("memtotal", total);
            m.put("memused", total - kb.get("MemAvailable") * 1024);
            m.put("swaptotal", kb.get("SwapTotal") * 1024);
            m.put("swapused", (kb.get("SwapTotal") - kb.get("SwapFree")) * 1024);
            return java.util.Optional.of(m);
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty();
        }
    }
}
