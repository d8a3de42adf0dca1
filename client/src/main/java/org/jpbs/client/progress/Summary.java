package org.jpbs.client.progress;

import java.util.Locale;
import org.jpbs.client.backup.BackupStats;
import org.jpbs.client.restore.RestoreStats;

/**
 * End-of-run summaries as short human-readable text blocks (lines end with {@code \n}).
 *
 * <p>Backup, e.g.:
 * <pre>
 * disk.img.fidx: 20.0 MiB (20971520 bytes) in 5 chunks
 *   new       2 chunks     8.0 MiB, stored 4.1 MiB compressed
 *   reused    2 chunks     8.0 MiB
 *   zero      1 chunk      4.0 MiB
 *   duration  0.41 s, 48.8 MiB/s
 * </pre>
 * Restore, e.g.:
 * <pre>
 * disk.img.fidx -&gt; out.img: 20.0 MiB (20971520 bytes) in 5 chunks
 *   fetched   4 chunks    16.0 MiB
 *   zero      1 chunk      4.0 MiB, 4.0 MiB left as holes
 *   duration  0.20 s, 100.0 MiB/s
 * </pre>
 */
public final class Summary {
    private Summary() {}

    /** The summary of one image backup; {@code name} is the archive name. */
    public static String backup(String name, BackupStats s) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%s: %s (%d bytes) in %s%n", name, Units.bytes(s.totalBytes()),
                s.totalBytes(), Units.chunks(s.chunks())));
        b.append(row("new", s.newChunks(), s.newBytes()))
                .append(", stored ").append(Units.bytes(s.storedBytes())).append(" compressed\n");
        b.append(row("reused", s.reusedChunks(), s.reusedBytes())).append('\n');
        b.append(row("zero", s.zeroChunks(), s.zeroBytes())).append('\n');
        b.append(timing(s.durationNanos(), s.bytesPerSecond()));
        return b.toString();
    }

    /** The summary of one restore; {@code name} is the archive name, {@code target} where it went. */
    public static String restore(String name, String target, RestoreStats s) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%s -> %s: %s (%d bytes) in %s%n", name, target,
                Units.bytes(s.totalBytes()), s.totalBytes(), Units.chunks(s.chunks())));
        b.append(row("fetched", s.fetchedChunks(), s.fetchedBytes())).append('\n');
        b.append(row("zero", s.zeroChunks(), s.zeroBytes()))
                .append(s.skippedBytes() > 0 ? ", " + Units.bytes(s.skippedBytes()) + " left as holes\n" : "\n");
        b.append(timing(s.durationNanos(), s.bytesPerSecond()));
        return b.toString();
    }

    private static String row(String label, long chunks, long bytes) {
        return String.format(Locale.ROOT, "  %-9s %-10s %9s", label, Units.chunks(chunks), Units.bytes(bytes));
    }

    private static String timing(long nanos, double rate) {
        return String.format(Locale.ROOT, "  %-9s %s, %s%n", "duration", Units.seconds(nanos), Units.rate(rate));
    }
}
