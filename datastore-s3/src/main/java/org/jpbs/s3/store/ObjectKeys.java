package org.jpbs.s3.store;

import java.util.regex.Pattern;
import org.jpbs.core.digest.Digest;

/**
 * Object keys of an S3 datastore, relative to its prefix {@code <store>/} in the bucket, as PBS
 * lays them out ({@code docs/s3.md#object-layout}): chunks under
 * {@code .chunks/<first 4 hex>/<64 hex>}, corrupt copies set aside as {@code <64 hex>.<n>.bad}
 * next to them, everything else (snapshot files, owner, notes, markers) under {@code .cnt/}
 * with the path it has in a directory datastore.
 */
public final class ObjectKeys {
    /** Prefix of the chunk objects. */
    public static final String CHUNKS = ".chunks/";
    /** Prefix of the datastore contents other than chunks. */
    public static final String CONTENT = ".cnt/";
    /** The marker object naming the host that uses the datastore. */
    public static final String IN_USE = ".in-use";
    /** Name of a namespace's marker object, {@code .cnt/ns/<a>[/ns/<b>…]/.namespace} (empty). */
    public static final String NAMESPACE_MARKER = ".namespace";

    private static final Pattern CHUNK = Pattern.compile("\\.chunks/[0-9a-f]{4}/[0-9a-f]{64}");

    private ObjectKeys() {
    }

    /** {@code .chunks/<4 hex>/<64 hex>}. */
    public static String chunk(Digest d) {
        return CHUNKS + d.prefix() + "/" + d.hex();
    }

    /** {@code .chunks/<4 hex>/<64 hex>.<n>.bad}. */
    public static String badChunk(Digest d, int n) {
        return chunk(d) + "." + n + ".bad";
    }

    /** The digest of a chunk key, or null if the key is not exactly a chunk (e.g. a .bad copy). */
    public static Digest digestOf(String key) {
        if (!CHUNK.matcher(key).matches() || !key.regionMatches(CHUNKS.length(), key, CHUNKS.length() + 5, 4)) {
            return null;
        }
        return Digest.parse(key.substring(CHUNKS.length() + 5));
    }

    /**
     * {@code .cnt/<relative path>} of a datastore file, the path relative to the datastore root
     * with '/' separators (e.g. {@code vm/100/2025-07-14T14:20:02Z/index.json.blob}).
     *
     * @throws IllegalArgumentException for an absolute path or one with {@code .} or {@code ..} components
     */
    public static String content(String relativePath) {
        if (relativePath.startsWith("/") || relativePath.isEmpty()) {
            throw new IllegalArgumentException("not a relative datastore path: '" + relativePath + "'");
        }
        for (String part : relativePath.split("/")) {
            if (part.isEmpty() || part.equals(".") || part.equals("..")) {
                throw new IllegalArgumentException("not a relative datastore path: '" + relativePath + "'");
            }
        }
        return CONTENT + relativePath;
    }
}
