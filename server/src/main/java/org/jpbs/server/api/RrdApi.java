package org.jpbs.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.server.auth.Privilege;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.RestResponse;
import org.jpbs.server.routing.ApiParams;
import org.jpbs.server.rrd.Rrd;
import org.jpbs.server.rrd.RrdSampler;
import org.jpbs.server.rrd.RrdStore;

/**
 * The metrics API, as PBS ({@code docs/api.md#metrics}): {@code GET admin/datastore/{store}/rrd}
 * (Datastore.Audit or Datastore.Backup on the store) and {@code GET nodes/{node}/rrd} (Sys.Audit
 * on {@code /system/status}), both with {@code timeframe} ({@code hour}, {@code day},
 * {@code week}, {@code month}, {@code year}, {@code decade}) and {@code cf} ({@code AVERAGE},
 * {@code MAX}); the answer has one {@code {"time", <metric>...}} per slot of the timeframe's
 * resolution, a metric only where it has a value. The usage history and estimated full date of
 * {@code status/datastore-usage} come from {@link org.jpbs.server.rrd.UsageHistory}.
 */
final class RrdApi {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private RrdApi() {}

    /** PBS's timeframes: span in seconds and resolution. */
    static long[] timeframe(String tf) {
        return switch (tf) {
            case "hour" -> new long[] {3600, 60};
            case "day" -> new long[] {86400, 60};
            case "week" -> new long[] {7 * 86400, 1800};
            case "month" -> new long[] {30 * 86400, 1800};
            case "year" -> new long[] {365 * 86400, 21600};
            case "decade" -> new long[] {10 * 366 * 86400L, 604800};
            default -> throw ApiException.badParam("timeframe", "value '" + tf + "' is not defined in the enumeration.");
        };
    }

    static Rrd.Cf cf(String cf) {
        return switch (cf) {
            case "AVERAGE" -> Rrd.Cf.AVERAGE;
            case "MAX" -> Rrd.Cf.MAX;
            default -> throw ApiException.badParam("cf", "value '" + cf + "' is not defined in the enumeration.");
        };
    }

    /** {@code GET admin/datastore/{store}/rrd}. */
    static RestResponse datastore(Access acc, String store, ApiParams p, long now) {
        String tf = p.required("timeframe");
        String cf = p.required("cf");
        long[] frame = timeframe(tf);
        Rrd.Cf fn = cf(cf);
        if ((acc.privileges(store, BackupNamespace.ROOT) & (Access.AUDIT | Access.BACKUP)) == 0) {
            throw new ApiException(403, "permission check failed");
        }
        acc.requireKnown(store);
        return RestResponse.data(series(store(acc), "datastore/" + store + "/", RrdSampler.DATASTORE_METRICS, frame, fn, now));
    }

    /** {@code GET nodes/{node}/rrd}. */
    static RestResponse node(Access acc, ApiParams p, long now) {
        long[] frame = timeframe(p.required("timeframe"));
        Rrd.Cf fn = cf(p.required("cf"));
        if ((acc.auth().privileges(acc.authid(), List.of("system", "status")) & Privilege.SYS_AUDIT.bit()) == 0) {
            throw new ApiException(403, "permission check failed");
        }
        return RestResponse.data(series(store(acc), "host/", RrdSampler.HOST_METRICS, frame, fn, now));
    }

    private static RrdStore store(Access acc) {
        return RrdStore.forConfigDir(acc.auth().configDir());
    }

    private static ArrayNode series(RrdStore rrd, String base, String[] metrics, long[] frame, Rrd.Cf cf, long now) {
        ArrayNode out = F.arrayNode();
        for (String m : metrics) {
            Rrd.Series s = rrd.extract(base + m, frame[1], now - frame[0], now, cf);
            for (int i = 0; i < s.values().length; i++) {
                if (out.size() <= i) {
                    out.addObject().put("time", s.start() + i * s.resolution());
                }
                double v = s.values()[i];
                if (!Double.isNaN(v)) {
                    ((ObjectNode) out.get(i)).put(m, v);
                }
            }
        }
        return out;
    }
}
