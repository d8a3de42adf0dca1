package org.jpbs.vma.stream;

import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStream;
import io.airlift.compress.lzo.LzopHadoopStreams;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.jpbs.core.errors.CorruptDataException;

/**
 * The stream framings a VMA archive comes in ({@code docs/vma.md#vzdump-archives}), each
 * read and written with a Java library: zstd with zstd-jni (frames of any number, as
 * {@code zstd --threads=N} writes), gzip with {@code java.util.zip} (concatenated members, as
 * {@code pigz} writes), lzop with aircompressor's {@code LzopHadoopStreams} (the {@code lzop}
 * file format with LZO1X blocks). bzip2 ({@code .vma.bz2}, which pve-storage still lists) is
 * recognised but not supported.
 */
public enum Compression {
    /** Plain {@code .vma}. */
    NONE("", new byte[] {'V', 'M', 'A', 0}),
    /** {@code .vma.zst}: zstd frames, magic {@code 28 b5 2f fd}. */
    ZSTD(".zst", new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd}),
    /** {@code .vma.gz}: gzip members, magic {@code 1f 8b}. */
    GZIP(".gz", new byte[] {0x1f, (byte) 0x8b}),
    /** {@code .vma.lzo}: the lzop file format, magic {@code 89 4c 5a 4f 00 0d 0a 1a 0a}. */
    LZO(".lzo", new byte[] {(byte) 0x89, 'L', 'Z', 'O', 0, 0x0d, 0x0a, 0x1a, 0x0a});

    private static final byte[] BZIP2 = {'B', 'Z', 'h'};
    private static final int BUFFER = 1 << 20;

    private final String extension;
    private final byte[] magic;

    Compression(String extension, byte[] magic) {
        this.extension = extension;
        this.magic = magic;
    }

    /** The file name extension after {@code .vma}: {@code ""}, {@code .zst}, {@code .gz} or {@code .lzo}. */
    public String extension() {
        return extension;
    }

    /** The name used on the command line: none, zstd, gzip, lzo. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The compression implied by a file name: {@code .zst}, {@code .gz}, {@code .lzo} at the end,
     * otherwise none.
     */
    public static Compression fromFileName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        for (Compression c : values()) {
            if (c != NONE && n.endsWith(c.extension)) {
                return c;
            }
        }
        return NONE;
    }

    /**
     * Parses a command-line name: none, zstd (or zst), gzip (or gz), lzo.
     *
     * @throws IllegalArgumentException for anything else
     */
    public static Compression parse(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "none", "raw", "vma" -> NONE;
            case "zstd", "zst" -> ZSTD;
            case "gzip", "gz" -> GZIP;
            case "lzo", "lzop" -> LZO;
            default -> throw new IllegalArgumentException("unknown compression '" + s + "' (use none, zstd, gzip or lzo)");
        };
    }

    /**
     * Opens an archive stream for reading, recognising the framing by its first bytes.
     *
     * @param raw      the stream as stored (file or pipe); closed with the returned stream
     * @param resource name for messages
     * @return the uncompressed VMA byte stream
     * @throws CorruptDataException if the data is neither VMA nor zstd/gzip/lzop (bzip2 is named)
     */
    public static InputStream openDecoding(InputStream raw, String resource) throws IOException {
        BufferedInputStream in = raw instanceof BufferedInputStream b ? b : new BufferedInputStream(raw, 1 << 16);
        in.mark(16);
        byte[] head = in.readNBytes(9);
        in.reset();
        for (Compression c : values()) {
            if (head.length >= c.magic.length && Arrays.equals(head, 0, c.magic.length, c.magic, 0, c.magic.length)) {
                return c == NONE ? in : new NamedErrors(c.decoding(in), resource, c);
            }
        }
        if (head.length >= 3 && Arrays.equals(head, 0, 3, BZIP2, 0, 3)) {
            throw new CorruptDataException(resource, 0, "bzip2-compressed archives are not supported (decompress with"
                    + " bzcat and pipe the result into jpbs with '-' as the archive)");
        }
        if (head.length == 0) {
            throw new CorruptDataException(resource, 0, "empty archive (no VMA header)");
        }
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < Math.min(4, head.length); i++) {
            hex.append(String.format("%s%02x", i == 0 ? "" : " ", head[i] & 0xff));
        }
        throw new CorruptDataException(resource, 0, "not a VMA archive (starts with " + hex
                + "; expected VMA\\0, or a zstd, gzip or lzop stream of one)");
    }

    /**
     * A decoder whose read errors (a truncated or corrupt zstd/gzip/lzop stream: "Truncated
     * source", "Unexpected end of ZLIB input stream", ...) name the archive and the framing.
     */
    private static final class NamedErrors extends java.io.FilterInputStream {
        private final String resource;
        private final Compression framing;

        NamedErrors(InputStream in, String resource, Compression framing) {
            super(in);
            this.resource = resource;
            this.framing = framing;
        }

        private IOException named(IOException e) {
            String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return new IOException(resource + ": truncated or corrupt " + framing.name().toLowerCase(java.util.Locale.ROOT)
                    + " stream (" + m + ")", e);
        }

        @Override
        public int read() throws IOException {
            try {
                return super.read();
            } catch (IOException e) {
                throw named(e);
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return super.read(b, off, len);
            } catch (IOException e) {
                throw named(e);
            }
        }

        @Override
        public long skip(long n) throws IOException {
            try {
                return super.skip(n);
            } catch (IOException e) {
                throw named(e);
            }
        }
    }

    /** Wraps a stream positioned at the start of this framing in a decoder. */
    public InputStream decoding(InputStream in) throws IOException {
        return switch (this) {
            case NONE -> in;
            case ZSTD -> new BufferedInputStream(new ZstdInputStream(in), BUFFER);
            case GZIP -> new BufferedInputStream(new GZIPInputStream(in, 1 << 16), BUFFER);
            case LZO -> new BufferedInputStream(new LzopHadoopStreams().createInputStream(in), BUFFER);
        };
    }

    /**
     * Wraps an output stream in an encoder; closing the result finishes the framing and closes
     * {@code out}.
     *
     * @param out     where the compressed bytes go
     * @param threads zstd worker threads (0 = single-threaded; ignored by the others)
     */
    public OutputStream encoding(OutputStream out, int threads) throws IOException {
        return switch (this) {
            case NONE -> out;
            case ZSTD -> {
                ZstdOutputStream z = new ZstdOutputStream(out, 3);
                if (threads > 0) {
                    z.setWorkers(threads);
                }
                yield new java.io.BufferedOutputStream(z, BUFFER);
            }
            case GZIP -> new java.io.BufferedOutputStream(new GZIPOutputStream(out, 1 << 16), BUFFER);
            case LZO -> new java.io.BufferedOutputStream(new LzopHadoopStreams().createOutputStream(out), BUFFER);
        };
    }
}
