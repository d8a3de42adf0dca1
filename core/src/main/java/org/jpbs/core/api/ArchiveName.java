package org.jpbs.core.api;

/**
 * Archive file names inside a snapshot ({@code docs/formats.md#datastore-layout}, {@code docs/formats.md#manifest-indexjsonblob}): the server name
 * ends in {@code .fidx}, {@code .didx} or {@code .blob}; the client-side name maps to it by
 * its extension.
 */
public final class ArchiveName {
    private ArchiveName() {}

    /**
     * Longest server file name of an archive: 244 characters, so that the temporary file
     * {@code <name>.tmp_XXXXXX} a snapshot is written through still fits the 255-character
     * file name limit. PBS's schema has no limit (a longer name fails when the file is created).
     */
    public static final int MAX_LENGTH = 244;

    /**
     * Returns {@code name} if it is a valid server file name: non-empty, no {@code '/'} or NUL,
     * not starting with {@code '.'} (so neither {@code .} nor {@code ..}), ending in
     * {@code .fidx}, {@code .didx} or {@code .blob}.
     *
     * @throws IllegalArgumentException naming the value otherwise
     */
    public static String checkServerName(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("archive name must not be empty");
        }
        if (name.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("archive name '" + name.substring(0, 32) + "...' is longer than "
                    + MAX_LENGTH + " characters");
        }
        if (name.indexOf('/') >= 0 || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("invalid archive name '" + name.replace("\0", "\\0")
                    + "' (must not contain '/' or NUL)");
        }
        if (name.startsWith(".")) {
            throw new IllegalArgumentException("invalid archive name '" + name + "' (must not start with '.')");
        }
        if (!(name.endsWith(".fidx") || name.endsWith(".didx") || name.endsWith(".blob"))
                || name.length() == 5) {
            throw new IllegalArgumentException("invalid archive name '" + name
                    + "' (must end in .fidx, .didx or .blob)");
        }
        return name;
    }

    /**
     * Maps a client archive name to the server file name: {@code x.img -> x.img.fidx},
     * {@code x.pxar -> x.pxar.didx}, {@code catalog.pcat1 -> catalog.pcat1.didx}, names already ending in {@code .fidx}, {@code .didx} or
     * {@code .blob} unchanged, anything else gets {@code .blob} ({@code x.conf -> x.conf.blob}).
     *
     * @throws IllegalArgumentException naming the value if the result is not a valid server name
     */
    public static String toServerName(String cliName) {
        if (cliName == null || cliName.isEmpty()) {
            throw new IllegalArgumentException("archive name must not be empty");
        }
        String s;
        if (cliName.endsWith(".fidx") || cliName.endsWith(".didx") || cliName.endsWith(".blob")) {
            s = cliName;
        } else if (cliName.endsWith(".img")) {
            s = cliName + ".fidx";
        } else if (cliName.endsWith(".pxar") || cliName.endsWith(".mpxar") || cliName.endsWith(".ppxar")
                || cliName.endsWith(".pcat1")) { // the catalog (catalog.pcat1.didx) is a dynamic index too
            s = cliName + ".didx";
        } else {
            s = cliName + ".blob";
        }
        return checkServerName(s);
    }
}
