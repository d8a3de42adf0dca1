package org.jpbs.vma.restore;

import java.util.Locale;

/**
 * How a restore turns extents into write requests ({@code docs/vma.md#the-vma-tool}, {@code docs/vma.md#restore-merged-and-sorted-writes}).
 */
public enum WriteMode {
    /**
     * As upstream {@code vma extract}: one request per full 64 KiB cluster, one per stored 4 KiB
     * block of a partial cluster and, when writing zeroes, one 4 KiB request per absent block.
     */
    CLUSTER,
    /**
     * Writes that continue the previous one on the same target are queued and issued as one
     * request when the target changes, a gap appears or the extent ends; entries in archive order.
     */
    MERGED,
    /** As {@link #MERGED}, after sorting each extent's entries by (device, cluster). The default. */
    SORTED;

    /** The command-line name: cluster, merged, sorted. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses cluster, merged or sorted.
     *
     * @throws IllegalArgumentException for anything else
     */
    public static WriteMode parse(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "cluster", "per-cluster" -> CLUSTER;
            case "merged" -> MERGED;
            case "sorted" -> SORTED;
            default -> throw new IllegalArgumentException("unknown write mode '" + s + "' (use cluster, merged or sorted)");
        };
    }
}
