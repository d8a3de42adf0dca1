package org.jpbs.datastore.gc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import org.jpbs.core.errors.CorruptDataException;

/**
 * The result of one garbage collection as PBS stores it in {@code <datastore>/.gc-status}
 * ({@code docs/formats.md#gc-status}): compact JSON with kebab-case keys in this order,
 * the same fields PBS 3.1.2 writes. Byte counts are sizes of chunk files; "pending" chunks are
 * unreferenced but younger than the cutoff.
 *
 * @param upid           task id of the run, or null
 * @param indexFileCount index files marked
 * @param indexDataBytes logical bytes those indexes describe
 * @param diskBytes      bytes of chunk files kept (referenced or touched since the oldest writer started)
 * @param diskChunks     number of chunk files kept
 * @param removedBytes   bytes of chunk files removed
 * @param removedChunks  chunk files removed
 * @param pendingBytes   bytes of unreferenced chunk files younger than the cutoff
 * @param pendingChunks  number of those
 * @param removedBad     {@code .bad} files removed
 * @param stillBad       {@code .bad} files kept
 */
public record GcStatus(String upid, long indexFileCount, long indexDataBytes, long diskBytes, long diskChunks,
                       long removedBytes, long removedChunks, long pendingBytes, long pendingChunks, long removedBad,
                       long stillBad) {
    /** File name in the datastore root. */
    public static final String FILE = ".gc-status";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** The JSON object, keys in PBS's order. */
    public ObjectNode toJsonNode() {
        ObjectNode o = MAPPER.createObjectNode();
        if (upid == null) {
            o.putNull("upid");
        } else {
            o.put("upid", upid);
        }
        o.put("index-file-count", indexFileCount);
        o.put("index-data-bytes", indexDataBytes);
        o.put("disk-bytes", diskBytes);
        o.put("disk-chunks", diskChunks);
        o.put("removed-bytes", removedBytes);
        o.put("removed-chunks", removedChunks);
        o.put("pending-bytes", pendingBytes);
        o.put("pending-chunks", pendingChunks);
        o.put("removed-bad", removedBad);
        o.put("still-bad", stillBad);
        return o;
    }

    /** Compact JSON, UTF-8, no trailing newline (as PBS writes the file). */
    public byte[] toJson() {
        return toJsonNode().toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Parses {@code .gc-status} content; missing counters are 0, unknown keys are ignored.
     *
     * @throws CorruptDataException naming {@code resource} if it is not a JSON object
     */
    public static GcStatus parse(byte[] json, String resource) throws CorruptDataException {
        JsonNode n;
        try {
            n = MAPPER.readTree(json);
        } catch (IOException e) {
            String why = e instanceof com.fasterxml.jackson.core.JsonProcessingException j ? j.getOriginalMessage()
                    : e.getMessage();
            throw new CorruptDataException(resource, -1, "invalid JSON: " + why, e);
        }
        if (n == null || !n.isObject()) {
            throw new CorruptDataException(resource, -1, "not a JSON object");
        }
        JsonNode u = n.get("upid");
        return new GcStatus(u == null || u.isNull() ? null : u.asText(), n.path("index-file-count").asLong(),
                n.path("index-data-bytes").asLong(), n.path("disk-bytes").asLong(), n.path("disk-chunks").asLong(),
                n.path("removed-bytes").asLong(), n.path("removed-chunks").asLong(), n.path("pending-bytes").asLong(),
                n.path("pending-chunks").asLong(), n.path("removed-bad").asLong(), n.path("still-bad").asLong());
    }

    /**
     * Reads {@code <root>/.gc-status}; empty if there is none (GC never ran).
     *
     * @throws CorruptDataException if it is not valid
     */
    public static Optional<GcStatus> read(Path datastoreRoot) throws IOException {
        Path f = datastoreRoot.resolve(FILE);
        try {
            return Optional.of(parse(Files.readAllBytes(f), f.toString()));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    /** Deduplication factor: index data bytes / disk bytes, 1.0 if nothing is on disk ({@code docs/formats.md#gc-status}). */
    public double deduplicationFactor() {
        return diskBytes == 0 ? 1.0 : (double) indexDataBytes / diskBytes;
    }
}
