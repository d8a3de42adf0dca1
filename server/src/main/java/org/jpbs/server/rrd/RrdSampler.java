package org.jpbs.server.rrd;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jpbs.datastore.config.DatastoreCache;
import org.jpbs.datastore.config.DatastoreConfig;

/**
 * Samples every minute into the {@link RrdStore}, as PBS's metric collection: per datastore
 * ({@code datastore/<store>/}) {@code total}, {@code used}, {@code available} (bytes, gauges) and
 * {@code read_ios}, {@code read_bytes}, {@code write_ios}, {@code write_bytes}, {@code io_ticks}
 * (per second, from the device's counters, {@link DiskStats}); for the host ({@code host/})
 * {@code loadavg}, {@code memtotal}, {@code memused}, {@code swaptotal}, {@code swapused} and the
 * config directory's file system {@code total} and {@code used}. Writes the files every ten
 * minutes and on {@link #close}.
 */
public final class RrdSampler implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(RrdSampler.class.getName());
    /** Metrics of a datastore, as PBS names them. */
    public static final String[] DATASTORE_METRICS = {"total", "used", "available", "read_ios", "read_bytes", "write_ios",
        "write_bytes", "io_ticks"};
    /** Metrics of the host. */
    public static final String[] HOST_METRICS = {"loadavg", "memtotal", "memused", "swaptotal", "swapused", "total", "used"};

    private final RrdStore store;
    private final DatastoreCache datastores;
    private final Path configDir;
    private final Map<String, long[]> previous = new ConcurrentHashMap<>(); // store -> time, counters
    private final Map<Path, FileStore> fileStores = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;
    private long lastFlush = System.nanoTime();

    private RrdSampler(RrdStore store, DatastoreCache datastores, Path configDir, ScheduledExecutorService timer) {
        this.store = store;
        this.datastores = datastores;
        this.configDir = configDir;
        this.timer = timer;
    }

    /** A sampler without a timer: call {@link #sample} yourself (tests). */
    public static RrdSampler manual(RrdStore store, DatastoreCache datastores, Path configDir) {
        return new RrdSampler(store, datastores, configDir, null);
    }

    /** Samples now and then at every full minute, on a daemon thread. */
    public static RrdSampler start(RrdStore store, DatastoreCache datastores, Path configDir) {
        ScheduledExecutorService t = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread th = new Thread(r, "jpbs-rrd-sampler");
            th.setDaemon(true);
            return th;
        });
        RrdSampler s = new RrdSampler(store, datastores, configDir, t);
        long delay = 60_000 - System.currentTimeMillis() % 60_000;
        t.execute(s::tick);
        t.scheduleAtFixedRate(s::tick, delay, 60_000, TimeUnit.MILLISECONDS);
        return s;
    }

    private void tick() {
        try {
            sample(System.currentTimeMillis() / 1000);
            if (System.nanoTime() - lastFlush > TimeUnit.MINUTES.toNanos(10)) {
                store.flush();
                lastFlush = System.nanoTime();
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "metric sampling failed: " + e);
        }
    }

    /** One round of samples at {@code now} (epoch seconds). */
    public void sample(long now) {
        try {
            java.util.Set<String> names = new java.util.HashSet<>();
            for (DatastoreConfig c : datastores.list()) {
                sampleDatastore(c.name(), c.path(), now);
                store.usage().get(c.name(), now); // ready for status/datastore-usage
                names.add(c.name());
            }
            store.usage().retain(names);
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "datastore metrics not sampled: " + e);
        }
        sampleHost(now);
    }

    private void sampleDatastore(String name, Path root, long now) {
        String base = "datastore/" + name + "/";
        try {
            FileStore fs = fileStores.get(root);
            if (fs == null) { // Files.getFileStore reads the mount table: once per datastore
                fs = Files.getFileStore(root);
                fileStores.put(root, fs);
            }
            long total = fs.getTotalSpace();
            store.update(base + "total", now, total);
            store.update(base + "used", now, total - fs.getUnallocatedSpace());
            store.update(base + "available", now, fs.getUsableSpace());
        } catch (IOException e) {
            fileStores.remove(root);
            return; // offline or removed: no point, a gap in the chart
        }
        Optional<DiskStats> d = DiskStats.of(root);
        if (d.isEmpty()) {
            return;
        }
        DiskStats s = d.get();
        long[] cur = {now, s.readIos(), s.readBytes(), s.writeIos(), s.writeBytes(), s.ioTicks()};
        long[] prev = previous.put(name, cur);
        if (prev != null && now > prev[0]) {
            double dt = now - prev[0];
            String[] names = {"read_ios", "read_bytes", "write_ios", "write_bytes", "io_ticks"};
            for (int i = 0; i < names.length; i++) {
                long delta = cur[i + 1] - prev[i + 1];
                if (delta >= 0) { // a counter reset (device replaced) gives no point
                    store.update(base + names[i], now, delta / dt);
                }
            }
        }
    }

    private void sampleHost(long now) {
        try {
            String[] load = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            store.update("host/loadavg", now, Double.parseDouble(load[0]));
            Map<String, Long> mem = new java.util.HashMap<>();
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                String[] f = line.split(":\\s+");
                if (f.length == 2) {
                    mem.put(f[0], Long.parseLong(f[1].replace(" kB", "").trim()) * 1024);
                }
            }
            long memTotal = mem.getOrDefault("MemTotal", 0L);
            store.update("host/memtotal", now, memTotal);
            store.update("host/memused", now, memTotal - mem.getOrDefault("MemAvailable", memTotal));
            long swapTotal = mem.getOrDefault("SwapTotal", 0L);
            store.update("host/swaptotal", now, swapTotal);
            store.update("host/swapused", now, swapTotal - mem.getOrDefault("SwapFree", swapTotal));
        } catch (IOException | RuntimeException e) {
            // not Linux: no host load and memory metrics
        }
        try {
            FileStore fs = Files.getFileStore(configDir);
            store.update("host/total", now, fs.getTotalSpace());
            store.update("host/used", now, fs.getTotalSpace() - fs.getUnallocatedSpace());
        } catch (IOException e) {
            // config directory gone: no point
        }
    }

    /** Stops sampling and writes the files. */
    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
        store.flush();
    }
}
