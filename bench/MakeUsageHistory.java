import java.nio.file.Path;
import org.jpbs.server.rrd.RrdStore;

/**
 * Bench helper: a month of usage history for datastores ds0000..ds(N-1) in CONFIG/rrdb (through
 * jpbs's own metrics store, as `jpbs serve` would have sampled it): every 30 minutes of the last 30
 * days a total, used and available sample, usage growing slowly with some noise, so that
 * status/datastore-usage answers 1,440 real numbers per datastore (the size a server running for
 * a month answers) and an estimated full date.
 * Usage: java -cp <jpbs jars> MakeUsageHistory.java CONFIG N
 */
public class MakeUsageHistory {
    public static void main(String[] a) throws Exception {
        Path config = Path.of(a[0]);
        int n = Integer.parseInt(a[1]);
        RrdStore rrd = RrdStore.forConfigDir(config);
        long now = System.currentTimeMillis() / 1000;
        long step = 1800;
        long from = (now / step) * step - 1439 * step;
        java.util.Random rnd = new java.util.Random(16);
        double total = 4e12;
        for (int i = 0; i < n; i++) {
            String base = String.format("datastore/ds%04d/", i);
            double used = total * (0.2 + 0.5 * rnd.nextDouble());
            double growth = total * 0.0002 * rnd.nextDouble();
            for (long t = from; t <= now; t += step) {
                used = Math.min(total, used + growth * (0.5 + rnd.nextDouble()));
                rrd.update(base + "total", t, total);
                rrd.update(base + "used", t, used);
                rrd.update(base + "available", t, total - used);
            }
        }
        rrd.flush();
        System.err.printf("a month of usage history for %d datastores in %s%n", n, config.resolve("rrdb"));
    }
}
