package org.jpbs.core.errors;

/**
 * Data starts with a magic number the reader does not accept (a blob, chunk or index of another
 * format or version, or a file of another kind). A {@link CorruptDataException} at offset 0
 * whose reason names the magic in hex, e.g. {@code "chunk 0a1b...: unknown blob magic
 * 0011223344556677 (at byte 0)"}; {@link #magic()} gives it. Server: 400; CLI: the "corrupt
 * data" exit code (README.md, "Exit codes").
 */
public class UnsupportedFormatException extends CorruptDataException {
    private static final long serialVersionUID = 1L;
    private final long magic;

    /**
     * @param resource file name or description of the data
     * @param magic    the 8 magic bytes found, big-endian
     * @param reason   what is wrong, naming the magic in hex
     */
    public UnsupportedFormatException(String resource, long magic, String reason) {
        super(resource, 0, reason);
        this.magic = magic;
    }

    /** The 8 magic bytes found, big-endian. */
    public long magic() {
        return magic;
    }
}
