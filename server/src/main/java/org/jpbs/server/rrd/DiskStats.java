package org.jpbs.server.rrd;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The I/O counters of the block device a directory lives on, from Linux's
 * {@code /proc/self/mountinfo} (the mount with the longest matching mount point gives the
 * device's {@code major:minor}) and {@code /proc/diskstats}. Empty where there is no block
 * device behind the directory (tmpfs, overlay, other systems).
 *
 * @param readIos    reads completed
 * @param readBytes  bytes read (sectors of 512 bytes)
 * @param writeIos   writes completed
 * @param writeBytes bytes written
 * @param ioTicks    milliseconds spent doing I/O
 */
public record DiskStats(long readIos, long readBytes, long writeIos, long writeBytes, long ioTicks) {

    /** The counters of {@code dir}'s device, if it has one. */
    public static Optional<DiskStats> of(Path dir) {
        try {
            Optional<String> dev = device(dir.toRealPath(), Files.readAllLines(Path.of("/proc/self/mountinfo")));
            if (dev.isEmpty()) {
                return Optional.empty();
            }
            return parse(dev.get(), Files.readAllLines(Path.of("/proc/diskstats")));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** {@code major:minor} of the mount holding {@code dir} (mountinfo fields 3 and 5). */
    static Optional<String> device(Path dir, List<String> mountinfo) {
        String best = null;
        int bestLen = -1;
        String p = dir.toString();
        for (String line : mountinfo) {
            String[] f = line.split(" ");
            if (f.length < 5) {
                continue;
            }
            String mount = f[4].replace("\\040", " ");
            boolean under = p.equals(mount) || mount.equals("/") || p.startsWith(mount + "/");
            if (under && mount.length() > bestLen) {
                best = f[2];
                bestLen = mount.length();
            }
        }
        return best == null || best.startsWith("0:") ? Optional.empty() : Optional.of(best);
    }

    static Optional<DiskStats> parse(String majorMinor, List<String> diskstats) {
        for (String line : diskstats) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 13 && (f[0] + ":" + f[1]).equals(majorMinor)) {
                return Optional.of(new DiskStats(Long.parseLong(f[3]), Long.parseLong(f[5]) * 512, Long.parseLong(f[7]),
                        Long.parseLong(f[9]) * 512, Long.parseLong(f[12])));
            }
        }
        return Optional.empty();
    }
}
