package org.jpbs.core.pxar;

import java.util.List;
import java.util.Objects;

/**
 * Everything pxar stores about one entry besides its name and contents: the stat, xattrs (in
 * the file system's order), ACLs, the raw file capability ({@code security.capability}, or
 * null) and the quota project id (0 = none).
 */
public record Metadata(Stat stat, List<XAttr> xattrs, Acl acl, byte[] fcaps, long quotaProjectId) {
    public Metadata {
        Objects.requireNonNull(stat, "stat");
        xattrs = List.copyOf(xattrs);
        Objects.requireNonNull(acl, "acl");
    }

    /** Only a stat: no xattrs, ACLs, capabilities or project id. */
    public static Metadata of(Stat stat) {
        return new Metadata(stat, List.of(), Acl.EMPTY, null, 0);
    }
}
