package org.jpbs.cli.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Sizes and kinds of files, including Linux block devices.
 *
 * <p>Java reports size 0 for block devices ({@code Files.size}, {@code FileChannel.size()} and
 * {@code RandomAccessFile.length()} all use {@code fstat}, whose {@code st_size} is 0 for a
 * device). The size of a block device is read from sysfs instead:
 * {@code /sys/class/block/<name>/size} holds the size in 512-byte sectors, whatever the
 * device's logical block size; {@code <name>} is the file name of the device node after
 * resolving symbolic links (so {@code /dev/mapper/vg-lv} becomes {@code dm-3}).
 */
public final class BlockDevices {
    private static final int S_IFMT = 0170000;
    private static final int S_IFBLK = 0060000;
    private static final int S_IFREG = 0100000;

    private BlockDevices() {}

    /** True if {@code p} is (a link to) a block device. */
    public static boolean isBlockDevice(Path p) {
        return (mode(p) & S_IFMT) == S_IFBLK;
    }

    /** True if {@code p} is (a link to) a regular file. */
    public static boolean isRegularFile(Path p) {
        return (mode(p) & S_IFMT) == S_IFREG;
    }

    private static int mode(Path p) {
        try {
            return (Integer) Files.getAttribute(p, "unix:mode");
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return Files.isRegularFile(p) ? S_IFREG : 0;
        }
    }

    /**
     * The size in bytes of a regular file or block device.
     *
     * @throws IOException naming the path if the size cannot be found
     */
    public static long size(Path p) throws IOException {
        if (!isBlockDevice(p)) {
            return Files.size(p);
        }
        Path real = p.toRealPath();
        Path sys = Path.of("/sys/class/block", real.getFileName().toString(), "size");
        try {
            long sectors = Long.parseLong(Files.readString(sys).strip());
            return sectors * 512;
        } catch (IOException | NumberFormatException e) {
            throw new IOException(p + ": cannot determine the size of the block device (" + sys + ": " + e.getMessage()
                    + ")", e);
        }
    }
}
