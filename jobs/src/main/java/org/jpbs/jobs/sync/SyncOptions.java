package org.jpbs.jobs.sync;

import java.util.List;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.units.ByteSize;
import org.jpbs.datastore.jobs.JobConfig;

/**
 * What a sync run copies and how ({@code docs/sync.md#options}), from a {@code sync.cfg} job or
 * the options of {@code jpbs pull}/{@code jpbs push}.
 *
 * @param push           true for push (local to remote), false for pull
 * @param sourceNs       the source's top namespace (pull: {@code remote-ns}, push: {@code ns})
 * @param targetNs       the target's top namespace (pull: {@code ns}, push: {@code remote-ns})
 * @param maxDepth       namespace levels below the top to include (0: only the top)
 * @param filters        {@code group-filter}s
 * @param removeVanished remove target snapshots, groups and namespaces the source no longer has
 * @param transferLast   copy only the newest N snapshots of each group (0: all)
 * @param owner          owner of new local groups (pull; default {@code root@pam})
 * @param encryptedOnly  copy only snapshots whose archives are all encrypted
 * @param verifiedOnly   copy only snapshots whose last verification passed
 * @param resyncCorrupt  copy again snapshots the target has whose verification failed (pull)
 * @param rate           bytes per second, or null for unlimited
 * @param burst          bucket size in bytes, or null
 */
public record SyncOptions(boolean push, BackupNamespace sourceNs, BackupNamespace targetNs, int maxDepth,
                          List<GroupFilter> filters, boolean removeVanished, int transferLast, String owner,
                          boolean encryptedOnly, boolean verifiedOnly, boolean resyncCorrupt, Long rate, Long burst) {
    /** PBS's default owner of pulled groups. */
    public static final String DEFAULT_OWNER = "root@pam";


    public SyncOptions {
        filters = List.copyOf(filters);
        if (maxDepth < 0 || maxDepth > BackupNamespace.MAX_DEPTH) {
            throw new IllegalArgumentException("max-depth: " + maxDepth + " is not in 0.." + BackupNamespace.MAX_DEPTH);
        }
        if (transferLast < 0) {
            throw new IllegalArgumentException("transfer-last: must be at least 1, got " + transferLast);
        }
    }

    /** The options of a {@code sync.cfg} job ({@code sync-direction} decides pull or push). */
    public static SyncOptions of(JobConfig c) {
        boolean push = c.get("sync-direction").orElse("pull").equals("push");
        BackupNamespace local = c.ns();
        BackupNamespace remote = c.get("remote-ns").filter(s -> !s.isEmpty()).map(BackupNamespace::parse)
                .orElse(BackupNamespace.ROOT);
        int depth = c.maxDepth().orElse(BackupNamespace.MAX_DEPTH);
        String rateKey = push ? "rate-out" : "rate-in";
        String burstKey = push ? "burst-out" : "burst-in";
        return new SyncOptions(push, push ? local : remote, push ? remote : local, depth,
                c.values("group-filter").stream().map(GroupFilter::parse).toList(), c.flag("remove-vanished"),
                c.get("transfer-last").map(Integer::parseInt).orElse(0), c.get("owner").orElse(DEFAULT_OWNER),
                c.flag("encrypted-only"), c.flag("verified-only"), c.flag("resync-corrupt"),
                c.get(rateKey).map(v -> parseSize(rateKey, v)).orElse(null),
                c.get(burstKey).map(v -> parseSize(burstKey, v)).orElse(null));
    }

    /**
     * Parses a byte size as PBS writes them ({@code 10MiB}, {@code 1.5 GB}, {@code 500000}; {@link ByteSize}).
     *
     * @throws IllegalArgumentException naming the key
     */
    public static long parseSize(String key, String v) {
        try {
            return ByteSize.parse(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + ": " + e.getMessage(), e);
        }
    }

    /** The target namespace of a source namespace below {@link #sourceNs}. */
    public BackupNamespace mapNamespace(BackupNamespace src) {
        BackupNamespace out = targetNs;
        for (String c : src.components().subList(sourceNs.depth(), src.depth())) {
            out = out.child(c);
        }
        return out;
    }
}
