package org.jpbs.core.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;
import org.jpbs.core.FileFormats;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;

/** Shared header helpers of the two index formats ({@code docs/formats.md#fixed-index-fidx}, {@code docs/formats.md#dynamic-index-didx}: magic 0, uuid 8, ctime 24, csum 32). */
final class IndexHeader {
    private IndexHeader() {}

    static final int UUID_OFFSET = 8;
    static final int CTIME_OFFSET = 24;
    static final int CSUM_OFFSET = 32;

    /** A little-endian view of {@code whole} from its position to its limit, position 0. */
    static ByteBuffer view(ByteBuffer whole, long magic, String kind, String resource) throws CorruptDataException {
        ByteBuffer b = whole.slice().order(ByteOrder.LITTLE_ENDIAN);
        if (b.remaining() < FileFormats.INDEX_HEADER_SIZE) {
            throw new CorruptDataException(resource, b.remaining(), kind + " shorter than its "
                    + FileFormats.INDEX_HEADER_SIZE + "-byte header (" + b.remaining() + " bytes)");
        }
        long m = b.order(ByteOrder.BIG_ENDIAN).getLong(0);
        b.order(ByteOrder.LITTLE_ENDIAN);
        if (m != magic) {
            throw new org.jpbs.core.errors.UnsupportedFormatException(resource, m,
                    "wrong magic " + String.format("%016x", m) + " for a " + kind);
        }
        return b;
    }

    static UUID uuid(ByteBuffer b) {
        ByteBuffer be = b.duplicate().order(ByteOrder.BIG_ENDIAN);
        return new UUID(be.getLong(UUID_OFFSET), be.getLong(UUID_OFFSET + 8));
    }

    static Digest csum(ByteBuffer b) {
        return Digest.read(b.duplicate().position(CSUM_OFFSET));
    }

    /** Writes magic, uuid, ctime and csum into the first 64 bytes of {@code out}. */
    static void write(byte[] out, long magic, UUID uuid, long ctime, Digest csum) {
        ByteBuffer b = ByteBuffer.wrap(out).order(ByteOrder.BIG_ENDIAN);
        FileFormats.putMagic(out, 0, magic);
        b.putLong(UUID_OFFSET, uuid.getMostSignificantBits());
        b.putLong(UUID_OFFSET + 8, uuid.getLeastSignificantBits());
        b.order(ByteOrder.LITTLE_ENDIAN).putLong(CTIME_OFFSET, ctime);
        csum.writeTo(b.position(CSUM_OFFSET));
    }

    /** Reads a whole file into a heap buffer through a FileChannel. */
    static ByteBuffer readFile(Path path) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size > Integer.MAX_VALUE - 64) {
                throw new CorruptDataException(path.toString(), -1, "index file too large (" + size + " bytes)");
            }
            ByteBuffer buf = ByteBuffer.allocate((int) size);
            while (buf.hasRemaining()) {
                if (ch.read(buf) < 0) {
                    break;
                }
            }
            buf.flip();
            return buf;
        }
    }
}
