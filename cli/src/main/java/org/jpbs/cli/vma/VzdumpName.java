package org.jpbs.cli.vma;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jpbs.vma.stream.Compression;

/**
 * vzdump's archive names ({@code docs/vma.md#vzdump-archives}):
 * {@code vzdump-qemu-<vmid>-YYYY_MM_DD-HH_MM_SS.vma[.zst|.gz|.lzo]}, the time being the backup
 * start in local time.
 */
final class VzdumpName {
    private static final Pattern NAME = Pattern.compile(
            "vzdump-qemu-([1-9][0-9]{2,8})-(\\d{4}_\\d{2}_\\d{2}-\\d{2}_\\d{2}_\\d{2})\\.vma(\\.(zst|gz|lzo|bz2))?");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy_MM_dd-HH_mm_ss");

    private VzdumpName() {}

    /** The VM id of a vzdump archive name (the file name part of {@code path}), if it is one. */
    static Optional<String> vmid(String path) {
        String file = path.substring(path.lastIndexOf('/') + 1);
        Matcher m = NAME.matcher(file);
        return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** The name vzdump would give an archive of {@code vmid} started at {@code epoch}. */
    static String format(String vmid, long epoch, Compression c) {
        return "vzdump-qemu-" + vmid + "-" + TIME.format(Instant.ofEpochSecond(epoch).atZone(ZoneId.systemDefault()))
                + ".vma" + c.extension();
    }
}
