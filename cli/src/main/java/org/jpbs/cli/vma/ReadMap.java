package org.jpbs.cli.vma;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jpbs.vma.format.VmaDevice;

/**
 * The device map of {@code vma extract -r READMAP} ({@code docs/vma.md#the-vma-tool}), as
 * qmrestore writes it into a FIFO: lines until the end, an empty line or {@code done}; each line
 * is {@code skip=<devname>} or
 * {@code [format=raw:][throttling.bps=<n>:][throttling.group=<name>:][cache=<mode>:]<0|1>:<devname>=<path>},
 * where {@code 0|1} is write_zero and each option appears at most once, in any order.
 * {@code cache=none} and {@code cache=directsync} mean {@code O_DIRECT}; throttling is accepted
 * and not applied. Every device not skipped needs a mapping.
 */
final class ReadMap {
    /** A mapped device. */
    record Mapping(String devname, Path path, boolean writeZero, boolean direct) {}

    private final Map<String, Mapping> mappings;
    private final Set<String> skipped;
    private final List<String> warnings;

    private ReadMap(Map<String, Mapping> mappings, Set<String> skipped, List<String> warnings) {
        this.mappings = mappings;
        this.skipped = skipped;
        this.warnings = warnings;
    }

    /** The mapping of a device, or null if it is skipped. */
    Mapping mapping(String devname) {
        return mappings.get(devname);
    }

    /** True if the device is skipped. */
    boolean skipped(String devname) {
        return skipped.contains(devname);
    }

    /** Notes about accepted but unapplied options (throttling). */
    List<String> warnings() {
        return warnings;
    }

    /**
     * Reads and checks the map.
     *
     * @param file    the map file or FIFO
     * @param devices the archive's devices
     * @throws IllegalArgumentException naming the line for a malformed line, an unknown device,
     *         a device mapped twice, or a device without mapping
     */
    static ReadMap read(Path file, List<VmaDevice> devices) throws IOException {
        Map<String, Mapping> mappings = new LinkedHashMap<>();
        Set<String> skipped = new HashSet<>();
        List<String> warnings = new java.util.ArrayList<>();
        Set<String> names = new HashSet<>();
        devices.forEach(d -> names.add(d.name()));
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                line = line.strip();
                if (line.isEmpty() || line.equals("done")) {
                    break;
                }
                String where = "READMAP " + file + " line " + n + " '" + line + "'";
                String dev;
                if (line.startsWith("skip=")) {
                    dev = line.substring(5);
                    checkDevice(dev, names, where);
                    if (mappings.containsKey(dev) || !skipped.add(dev)) {
                        throw new IllegalArgumentException(where + ": device " + dev + " is mapped twice");
                    }
                    continue;
                }
                Mapping m = parse(line, where, warnings);
                checkDevice(m.devname(), names, where);
                if (skipped.contains(m.devname()) || mappings.put(m.devname(), m) != null) {
                    throw new IllegalArgumentException(where + ": device " + m.devname() + " is mapped twice");
                }
            }
        }
        for (VmaDevice d : devices) {
            if (!mappings.containsKey(d.name()) && !skipped.contains(d.name())) {
                throw new IllegalArgumentException("READMAP " + file + ": no device name mapping for " + d.name());
            }
        }
        return new ReadMap(mappings, skipped, warnings);
    }

    private static void checkDevice(String dev, Set<String> names, String where) {
        if (!names.contains(dev)) {
            throw new IllegalArgumentException(where + ": the archive has no device " + dev);
        }
    }

    private static Mapping parse(String line, String where, List<String> warnings) {
        Map<String, String> opts = new HashMap<>();
        String rest = line;
        while (true) {
            int eq = rest.indexOf('=');
            int colon = rest.indexOf(':');
            if (eq < 0 || colon < 0 || colon < eq) {
                break;
            }
            String key = rest.substring(0, eq);
            if (!Set.of("format", "throttling.bps", "throttling.group", "cache").contains(key)) {
                break;
            }
            if (opts.put(key, rest.substring(eq + 1, colon)) != null) {
                throw new IllegalArgumentException(where + ": option " + key + " given twice");
            }
            rest = rest.substring(colon + 1);
        }
        if (rest.length() < 3 || (rest.charAt(0) != '0' && rest.charAt(0) != '1') || rest.charAt(1) != ':') {
            throw new IllegalArgumentException(where + ": expected [OPTIONS:]0|1:DEVNAME=PATH or skip=DEVNAME");
        }
        boolean writeZero = rest.charAt(0) == '1';
        rest = rest.substring(2);
        int eq = rest.indexOf('=');
        if (eq <= 0 || eq == rest.length() - 1) {
            throw new IllegalArgumentException(where + ": expected DEVNAME=PATH after the write-zero flag");
        }
        String format = opts.getOrDefault("format", "raw");
        if (!format.equals("raw")) {
            throw new IllegalArgumentException(where + ": format=" + format + " is not supported (only raw)");
        }
        boolean direct = false;
        String cache = opts.get("cache");
        if (cache != null) {
            direct = switch (cache.toLowerCase(Locale.ROOT)) {
                case "none", "directsync" -> true;
                case "writeback", "writethrough", "unsafe" -> false;
                default -> throw new IllegalArgumentException(where + ": unknown cache mode '" + cache
                        + "' (none, directsync, writeback, writethrough, unsafe)");
            };
        }
        String bps = opts.get("throttling.bps");
        if (bps != null) {
            try {
                Long.parseUnsignedLong(bps);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(where + ": throttling.bps must be a number, got '" + bps + "'");
            }
            warnings.add("throttling.bps=" + bps + " for " + rest.substring(0, eq) + " is accepted but not applied");
        }
        return new Mapping(rest.substring(0, eq), Path.of(rest.substring(eq + 1)), writeZero, direct);
    }
}
