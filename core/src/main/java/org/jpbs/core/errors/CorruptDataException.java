package org.jpbs.core.errors;

import java.io.IOException;

/**
 * Data read from a file or stream does not follow its format: wrong magic, bad checksum,
 * wrong length. Carries the resource (file name or description), the byte offset where the
 * problem was found (or -1 if not applicable) and the reason.
 */
public class CorruptDataException extends IOException {
    private final String resource;
    private final long offset;
    private final String reason;

    /**
     * @param resource file name or description of the data
     * @param offset   byte offset of the problem, or -1
     * @param reason   what is wrong, in a few words
     */
    public CorruptDataException(String resource, long offset, String reason) {
        this(resource, offset, reason, null);
    }

    /** As {@link #CorruptDataException(String, long, String)}, with the underlying cause (may be null). */
    public CorruptDataException(String resource, long offset, String reason, Throwable cause) {
        super(resource + ": " + reason + (offset >= 0 ? " (at byte " + offset + ")" : ""), cause);
        this.resource = resource;
        this.offset = offset;
        this.reason = reason;
    }

    public String resource() { return resource; }

    public long offset() { return offset; }

    public String reason() { return reason; }
}
