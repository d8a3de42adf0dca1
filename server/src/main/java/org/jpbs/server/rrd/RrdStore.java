package org.jpbs.server.rrd;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The archives of one server, one file per metric under {@code <config>/rrdb/}
 * ({@code datastore/<store>/<metric>}, {@code host/<metric>}), kept in memory once read and
 * written back (atomically: temporary file, then rename) by {@link #flush}. One instance per
 * config directory in a process ({@link #forConfigDir}), shared by the sampler and the API.
 * Thread-safe.
 */
public final class RrdStore {
    private static final System.Logger LOG = System.getLogger(RrdStore.class.getName());
    private static final Map<Path, RrdStore> STORES = new ConcurrentHashMap<>();
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*(/[A-Za-z0-9_][A-Za-z0-9_.-]*)*");

    private final Path dir;
    private final Map<String, Rrd> loaded = new ConcurrentHashMap<>();
    private final Set<String> dirty = new HashSet<>();
    private final UsageHistory usage = new UsageHistory(this);

    private RrdStore(Path dir) {
        this.dir = dir;
    }

    /** The usage histories of {@code status/datastore-usage}, kept ready from this store. */
    public UsageHistory usage() {
        return usage;
    }

    /** A number that changes whenever metric {@code name} gets a sample (caches of its values compare it). */
    public long version(String name) {
        Rrd r = archive(name);
        synchronized (r) {
            return r.updates();
        }
    }

    /** The store of {@code configDir} ({@code <configDir>/rrdb}), the same instance for the same directory. */
    public static RrdStore forConfigDir(Path configDir) {
        Path key = configDir.toAbsolutePath().normalize();
        return STORES.computeIfAbsent(key, k -> new RrdStore(k.resolve("rrdb")));
    }

    private static void checkName(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("invalid RRD name '" + name + "'");
        }
    }

    private Rrd archive(String name) {
        checkName(name);
        return loaded.computeIfAbsent(name, n -> {
            Path f = dir.resolve(n);
            try (InputStream in = Files.newInputStream(f)) {
                return Rrd.read(new DataInputStream(new BufferedInputStream(in)));
            } catch (NoSuchFileException e) {
                return new Rrd();
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "RRD file " + n + " unreadable, starting it anew: " + e.getMessage());
                return new Rrd();
            }
        });
    }

    /** Adds a sample of metric {@code name} at {@code time}. */
    public void update(String name, long time, double value) {
        Rrd r = archive(name);
        synchronized (r) {
            r.update(time, value);
        }
        synchronized (dirty) {
            dirty.add(name);
        }
    }

    /** The values of metric {@code name} (empty series when it was never sampled). */
    public Rrd.Series extract(String name, long resolution, long start, long end, Rrd.Cf cf) {
        Rrd r = archive(name);
        synchronized (r) {
            return r.extract(resolution, start, end, cf);
        }
    }

    /** Writes every archive changed since the last flush; failures are logged, the data stays in memory. */
    public void flush() {
        Set<String> names;
        synchronized (dirty) {
            names = new HashSet<>(dirty);
            dirty.clear();
        }
        for (String n : names) {
            Rrd r = loaded.get(n);
            Path f = dir.resolve(n);
            try {
                Files.createDirectories(f.getParent());
                Path tmp = f.resolveSibling("." + f.getFileName() + ".tmp");
                try (OutputStream out = Files.newOutputStream(tmp);
                        DataOutputStream d = new DataOutputStream(new BufferedOutputStream(out, 1 << 16))) {
                    synchronized (r) {
                        r.write(d);
                    }
                }
                Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "RRD file " + n + " not written: " + e.getMessage());
                synchronized (dirty) {
                    dirty.add(n);
                }
            }
        }
    }

    /** Forgets what is in memory (tests: the next read comes from the files, as after a restart). */
    public void dropCache() {
        flush();
        loaded.clear();
        usage.retain(Set.of());
    }
}
