package org.jpbs.core.pxar;

import org.jpbs.core.manifest.BackupManifest;

/**
 * Which index files hold a file archive ({@code docs/pxar.md#split-archives}), as PBS resolves
 * an archive name: a name the manifest lists is used as it is, except that either half of a
 * split archive ({@code NAME.mpxar.didx}, {@code NAME.ppxar.didx}) means both; a
 * {@code NAME.pxar.didx} the manifest does not list falls back to the split pair.
 *
 * @param metadata the archive to decode (the whole archive, or the {@code .mpxar} half)
 * @param payload  the {@code .ppxar} half of a split archive, or null
 */
public record ArchiveNames(String metadata, String payload) {

    /** Resolves {@code serverName} (e.g. {@code root.pxar.didx}) against {@code manifest}. */
    public static ArchiveNames resolve(String serverName, BackupManifest manifest) {
        String ext = serverName.endsWith(".didx") ? ".didx" : "";
        String base = serverName.substring(0, serverName.length() - ext.length());
        if (manifest.file(base + ".didx").isPresent() || manifest.file(base).isPresent()) {
            String split = strip(base, ".mpxar");
            if (split == null) {
                split = strip(base, ".ppxar");
            }
            return split == null ? new ArchiveNames(serverName, null)
                    : new ArchiveNames(split + ".mpxar" + ext, split + ".ppxar" + ext);
        }
        String plain = strip(base, ".pxar");
        if (plain != null) {
            return new ArchiveNames(plain + ".mpxar" + ext, plain + ".ppxar" + ext);
        }
        throw new IllegalArgumentException("archive '" + serverName + "' not found in manifest");
    }

    /** Whether the archive is split in two. */
    public boolean isSplit() {
        return payload != null;
    }

    private static String strip(String s, String suffix) {
        return s.endsWith(suffix) && s.length() > suffix.length() ? s.substring(0, s.length() - suffix.length()) : null;
    }
}
