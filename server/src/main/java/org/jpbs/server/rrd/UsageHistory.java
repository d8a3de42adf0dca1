package org.jpbs.server.rrd;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The usage history and estimated full date of {@code status/datastore-usage}
 * ({@code docs/api.md#metrics}), per datastore, kept ready: the {@link RrdSampler} refreshes a
 * datastore's entry right after each sample, so a request over a thousand datastores reads
 * memory instead of extracting 2 × {@value #POINTS} slots per datastore and building their JSON.
 * An entry is valid while the history window and both archives ({@code used}, {@code total})
 * are unchanged ({@link RrdStore#version}); otherwise it is recomputed on the spot. One per
 * {@link RrdStore}; thread-safe.
 */
public final class UsageHistory {
    /** Seconds between two points of the history. */
    public static final long DELTA = 1800;
    /** Points of the history (a month). */
    public static final int POINTS = 1440;
    /** Known points must span a day before a full date is estimated. */
    public static final long MIN_ESTIMATE_SPAN = 86400;
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final RrdStore rrd;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    /**
     * One datastore's history.
     *
     * @param start    time of the first point ({@code history-start})
     * @param json     the {@code history} array as JSON text: used/total per point, null where unknown
     * @param estimate {@code estimated-full-date}, if the known points span {@link #MIN_ESTIMATE_SPAN}
     */
    public record Entry(long start, String json, OptionalLong estimate, long usedVersion, long totalVersion) {}

    UsageHistory(RrdStore rrd) {
        this.rrd = rrd;
    }

    /** The first point's time of the window that ends in the slot holding {@code now}. */
    public static long start(long now) {
        return (now / DELTA + 1) * DELTA - POINTS * DELTA;
    }

    /** The history of datastore {@code store} at {@code now} (epoch seconds), from the cache when still valid. */
    public Entry get(String store, long now) {
        String used = "datastore/" + store + "/used";
        String total = "datastore/" + store + "/total";
        long start = start(now);
        long uv = rrd.version(used);
        long tv = rrd.version(total);
        Entry e = entries.get(store);
        if (e != null && e.start() == start && e.usedVersion() == uv && e.totalVersion() == tv) {
            return e;
        }
        e = compute(rrd, used, total, start, uv, tv);
        entries.put(store, e);
        return e;
    }

    /** Forgets the entries of datastores not in {@code stores} (removed ones). */
    void retain(java.util.Set<String> stores) {
        entries.keySet().retainAll(stores);
    }

    /**
     * The history from {@code start}, {@value #POINTS} points, and the estimate: the time the
     * least-squares line through the known points reaches 1.0 (0 when usage does not grow; a
     * time in the past when it shrinks).
     */
    private static Entry compute(RrdStore rrd, String usedName, String totalName, long start, long uv, long tv) {
        long end = start + (POINTS - 1) * DELTA;
        double[] used = rrd.extract(usedName, DELTA, start, end, Rrd.Cf.AVERAGE).values();
        double[] total = rrd.extract(totalName, DELTA, start, end, Rrd.Cf.AVERAGE).values();
        ArrayNode h = F.arrayNode(POINTS);
        double n = 0;
        double firstX = Double.NaN;
        double lastX = Double.NaN;
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (int i = 0; i < POINTS; i++) {
            double u = i < used.length && i < total.length && total[i] > 0 ? used[i] / total[i] : Double.NaN;
            if (Double.isNaN(u)) {
                h.addNull();
                continue;
            }
            h.add(u);
            double x = start + i * DELTA;
            firstX = n == 0 ? x : firstX;
            lastX = x;
            n++;
            sx += x;
            sy += u;
            sxx += x * x;
            sxy += x * u;
        }
        OptionalLong estimate = OptionalLong.empty();
        if (n >= 2 && lastX - firstX >= MIN_ESTIMATE_SPAN) {
            double denom = n * sxx - sx * sx;
            double b = denom == 0 ? 0 : (n * sxy - sx * sy) / denom;
            double a = (sy - b * sx) / n;
            estimate = OptionalLong.of(b == 0 ? 0 : Math.max(0, (long) Math.floor((1.0 - a) / b)));
        }
        try {
            return new Entry(start, MAPPER.writeValueAsString(h), estimate, uv, tv);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
