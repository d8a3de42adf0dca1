package org.jpbs.cli.vma;

import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.jpbs.vma.format.VmaConfig;
import org.jpbs.vma.format.VmaDevice;
import org.jpbs.vma.format.VmaHeader;

/**
 * The output of {@code vma list} ({@code docs/vma.md#the-vma-tool}): one
 * {@code CFG: size: <len> name: <name>} line per config, one
 * {@code DEV: dev_id=<n> size: <bytes> devname: <name>} per device (or
 * {@code VMSTATE: dev_id=<n> memory: <bytes>}), and last {@code CTIME: <ctime(3) text>} in the
 * local time zone, which qmrestore takes as the end of the listing.
 */
final class VmaListing {
    private static final DateTimeFormatter CTIME = DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US);

    private VmaListing() {}

    /** Prints the listing of {@code h}. */
    static void print(VmaHeader h, PrintStream out) {
        for (VmaConfig c : h.configs()) {
            out.println("CFG: size: " + c.data().length + " name: " + c.name());
        }
        for (VmaDevice d : h.devices()) {
            if (d.isVmstate()) {
                out.println("VMSTATE: dev_id=" + d.id() + " memory: " + d.size());
            } else {
                out.println("DEV: dev_id=" + d.id() + " size: " + d.size() + " devname: " + d.name());
            }
        }
        out.println("CTIME: " + ctime(h.ctime()));
        out.flush();
    }

    /** Seconds since the epoch as ctime(3) prints them, without the newline: {@code Sun Oct 31 11:43:42 2021}. */
    static String ctime(long epoch) {
        return CTIME.format(Instant.ofEpochSecond(epoch).atZone(ZoneId.systemDefault()));
    }
}
