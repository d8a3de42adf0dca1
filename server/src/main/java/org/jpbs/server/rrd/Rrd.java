package org.jpbs.server.rrd;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;

/**
 * One metric's archive: for each resolution ({@link #RESOLUTIONS} seconds, {@link #SLOTS}
 * slots each) a ring of averages, maxima and sample counts, indexed by {@code time / resolution
 * mod slots}. A slot not updated in the last {@code slots} periods reads as no data. Fixed size
 * in memory and on disk ({@link #write}). Not thread-safe: {@link RrdStore} synchronises.
 */
public final class Rrd {
    /** Seconds per slot: 1 minute, 30 minutes, 6 hours, 1 week (PBS's RRAs). */
    public static final long[] RESOLUTIONS = {60, 1800, 21600, 604800};
    /** Slots per resolution: a day, a month, a year, ten years. */
    public static final int[] SLOTS = {1440, 1440, 1440, 570};
    private static final int MAGIC = 0x4a525244; // "JRRD"
    private static final int VERSION = 1;

    /** Consolidation function. */
    public enum Cf { AVERAGE, MAX }

    /** A series: the time of the first slot, seconds per slot, and one value (NaN = none) per slot. */
    public record Series(long start, long resolution, double[] values) {}

    private final long[] lastSlot = new long[RESOLUTIONS.length];
    private final double[][] avg = new double[RESOLUTIONS.length][];
    private final double[][] max = new double[RESOLUTIONS.length][];
    private final long[][] count = new long[RESOLUTIONS.length][];
    private long updates; // in memory only: tells caches of extracted values that they are stale

    /** An empty archive. */
    public Rrd() {
        for (int r = 0; r < RESOLUTIONS.length; r++) {
            avg[r] = nan(SLOTS[r]);
            max[r] = nan(SLOTS[r]);
            count[r] = new long[SLOTS[r]];
            lastSlot[r] = -1;
        }
    }

    private static double[] nan(int n) {
        double[] a = new double[n];
        Arrays.fill(a, Double.NaN);
        return a;
    }

    /** Adds a sample at {@code time} (epoch seconds); samples older than a slot's last update are ignored there. */
    public void update(long time, double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return;
        }
        updates++;
        for (int r = 0; r < RESOLUTIONS.length; r++) {
            long slot = time / RESOLUTIONS[r];
            if (slot < lastSlot[r]) {
                continue;
            }
            int n = SLOTS[r];
            if (slot > lastSlot[r]) { // clear the slots skipped since the last update, then this one
                long from = lastSlot[r] < 0 ? slot : Math.max(lastSlot[r] + 1, slot - n + 1);
                for (long s = from; s <= slot; s++) {
                    int i = (int) Math.floorMod(s, (long) n);
                    avg[r][i] = Double.NaN;
                    max[r][i] = Double.NaN;
                    count[r][i] = 0;
                }
                lastSlot[r] = slot;
            }
            int i = (int) Math.floorMod(slot, (long) n);
            long c = count[r][i];
            avg[r][i] = c == 0 ? value : avg[r][i] + (value - avg[r][i]) / (c + 1);
            max[r][i] = c == 0 ? value : Math.max(max[r][i], value);
            count[r][i] = c + 1;
        }
    }

    /**
     * The values of {@code resolution} between {@code start} and {@code end} (epoch seconds),
     * one per slot from the slot holding {@code start} to the one holding {@code end}.
     *
     * @throws IllegalArgumentException for a resolution that is not one of {@link #RESOLUTIONS}
     */
    public Series extract(long resolution, long start, long end, Cf cf) {
        int r = Arrays.binarySearch(RESOLUTIONS, resolution);
        if (r < 0) {
            throw new IllegalArgumentException("no archive with resolution " + resolution);
        }
        long first = start / resolution;
        long last = end / resolution;
        int n = SLOTS[r];
        double[] out = new double[(int) Math.max(0, last - first + 1)];
        for (long s = first; s <= last; s++) {
            boolean live = lastSlot[r] >= 0 && s <= lastSlot[r] && s > lastSlot[r] - n;
            int i = (int) Math.floorMod(s, (long) n);
            out[(int) (s - first)] = live ? (cf == Cf.MAX ? max[r][i] : avg[r][i]) : Double.NaN;
        }
        return new Series(first * resolution, resolution, out);
    }

    /** How many samples were added since this archive was created or read (not stored). */
    public long updates() {
        return updates;
    }

    /** Writes the archive (fixed size). */
    public void write(DataOutputStream out) throws IOException {
        out.writeInt(MAGIC);
        out.writeInt(VERSION);
        for (int r = 0; r < RESOLUTIONS.length; r++) {
            out.writeLong(lastSlot[r]);
            for (int i = 0; i < SLOTS[r]; i++) {
                out.writeDouble(avg[r][i]);
                out.writeDouble(max[r][i]);
                out.writeLong(count[r][i]);
            }
        }
    }

    /**
     * Reads an archive written by {@link #write}.
     *
     * @throws IOException if it is not one (wrong magic or version, truncated)
     */
    public static Rrd read(DataInputStream in) throws IOException {
        if (in.readInt() != MAGIC || in.readInt() != VERSION) {
            throw new IOException("not a jpbs RRD file (version " + VERSION + ")");
        }
        Rrd rrd = new Rrd();
        for (int r = 0; r < RESOLUTIONS.length; r++) {
            rrd.lastSlot[r] = in.readLong();
            for (int i = 0; i < SLOTS[r]; i++) {
                rrd.avg[r][i] = in.readDouble();
                rrd.max[r][i] = in.readDouble();
                rrd.count[r][i] = in.readLong();
            }
        }
        return rrd;
    }
}
