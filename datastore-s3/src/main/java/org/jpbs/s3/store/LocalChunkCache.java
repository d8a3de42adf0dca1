package org.jpbs.s3.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.jpbs.core.digest.Digest;
import org.jpbs.datastore.os.AtomicFiles;

/**
 * The local side of an S3 datastore's chunks ({@code docs/s3.md#local-cache}), in the
 * directory layout {@code <cache>/.chunks/<4 hex>/<64 hex>}: a file is either the chunk itself
 * (a cached body) or empty (a marker: "this chunk is in the bucket"). Its modification time is
 * the chunk's last use (write, duplicate insert, touch), what a GC sweep compares with its
 * cutoff. The bodies are bounded to {@code maxBytes}: the least recently used ones are
 * truncated back to markers ({@link #victim}, {@link #evict}), the marker keeping its time.
 *
 * <p>Callers serialise the operations on one digest (the store's striped locks); the class
 * itself guards only its LRU bookkeeping.
 */
final class LocalChunkCache {
    private final Path dir;
    private final long maxBytes;
    private final LinkedHashMap<Digest, Long> bodies = new LinkedHashMap<>(1024, 0.75f, true);
    private long bytes;

    LocalChunkCache(Path chunksDir, long maxBytes) throws IOException {
        this.dir = chunksDir;
        this.maxBytes = maxBytes;
        Files.createDirectories(dir);
        List<Object[]> found = new ArrayList<>();
        try (Stream<Path> s = Files.walk(dir, 2)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                String n = p.getFileName().toString();
                if (n.length() == 64 && Digest.isHex(n)) {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                    if (a.isRegularFile() && a.size() > 0) {
                        found.add(new Object[] {Digest.parse(n), a.size(), a.lastModifiedTime()});
                    }
                } else if (n.contains(".tmp_")) {
                    Files.deleteIfExists(p);
                }
            }
        }
        found.sort(Comparator.comparing(o -> (FileTime) o[2]));
        for (Object[] o : found) {
            bodies.put((Digest) o[0], (Long) o[1]);
            bytes += (Long) o[1];
        }
    }

    Path path(Digest d) {
        return dir.resolve(d.prefix()).resolve(d.hex());
    }

    /** The last use of a chunk this cache knows, or empty. */
    Optional<Instant> lastUsed(Digest d) throws IOException {
        try {
            return Optional.of(Files.getLastModifiedTime(path(d)).toInstant());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    /** The cached body, or null if only a marker or nothing is here. */
    byte[] body(Digest d) throws IOException {
        byte[] b;
        try {
            b = Files.readAllBytes(path(d));
        } catch (NoSuchFileException e) {
            return null;
        }
        synchronized (this) {
            bodies.get(d);
        }
        return b.length == 0 ? null : b;
    }

    /** Records that the chunk is in the bucket and was used at {@code when} (keeps a cached body). */
    void mark(Digest d, Instant when) throws IOException {
        Path p = path(d);
        if (!Files.exists(p)) {
            write(p, new byte[0]);
        }
        Files.setLastModifiedTime(p, FileTime.from(when));
    }

    /** Caches a body, last used at {@code when}; the caller then evicts ({@link #victim}). */
    void putBody(Digest d, byte[] raw, Instant when) throws IOException {
        Path p = path(d);
        write(p, raw);
        Files.setLastModifiedTime(p, FileTime.from(when));
        synchronized (this) {
            Long old = bodies.put(d, (long) raw.length);
            bytes += raw.length - (old == null ? 0 : old);
        }
    }

    /** Forgets a chunk entirely (removed from the bucket, or set aside as corrupt). */
    void forget(Digest d) throws IOException {
        Files.deleteIfExists(path(d));
        dropBody(d);
    }

    /** The least recently used body while the bodies exceed the bound, or null. */
    synchronized Digest victim() {
        if (bytes <= maxBytes) {
            return null;
        }
        Iterator<Map.Entry<Digest, Long>> it = bodies.entrySet().iterator();
        return it.hasNext() ? it.next().getKey() : null;
    }

    /** Truncates a body back to a marker with the same last use. */
    void evict(Digest d) throws IOException {
        Path p = path(d);
        try {
            FileTime t = Files.getLastModifiedTime(p);
            write(p, new byte[0]);
            Files.setLastModifiedTime(p, t);
        } catch (NoSuchFileException e) {
            // already forgotten
        }
        dropBody(d);
    }

    /** Bytes of cached bodies. */
    synchronized long bytes() {
        return bytes;
    }

    private synchronized void dropBody(Digest d) {
        Long old = bodies.remove(d);
        if (old != null) {
            bytes -= old;
        }
    }

    private static void write(Path p, byte[] data) throws IOException {
        Files.createDirectories(p.getParent());
        Path tmp = AtomicFiles.writeTemp(p, data, 0, data.length, false);
        try {
            Files.move(tmp, p, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
    }
}
