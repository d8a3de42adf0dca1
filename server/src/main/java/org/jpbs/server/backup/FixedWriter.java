package org.jpbs.server.backup;

import java.util.UUID;
import org.jpbs.core.FileFormats;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.FixedIndexBuilder;
import org.jpbs.server.http.ApiException;

/**
 * A fixed index being written (spec {@code pbs-protocol.md} §2.4-§2.6): chunk size 4 MiB,
 * each appended chunk goes to slot {@code offset / 4 MiB} (offsets are chunk starts, so
 * appends may come in any order), only the chunk that ends at the image size may be shorter.
 * With {@code reuse-csum} the slots are pre-filled from the previous index (incremental) and
 * the close does not require every slot to be appended again.
 */
final class FixedWriter implements IndexWriter {
    /** The server's fixed chunk size: 4 MiB (§2.4). */
    static final int CHUNK_SIZE = FileFormats.DEFAULT_FIXED_CHUNK_SIZE;

    private final int wid;
    private final String name;
    private final long size;
    private final boolean incremental;
    private final FixedIndexBuilder builder;
    private int appended;

    /**
     * @param size     image size in bytes (>= 1)
     * @param previous index to pre-fill from (incremental), or null
     */
    FixedWriter(int wid, String name, long size, FixedIndex previous) {
        this.wid = wid;
        this.name = name;
        this.size = size;
        this.builder = new FixedIndexBuilder(size, CHUNK_SIZE);
        this.incremental = previous != null;
        if (previous != null) {
            if (previous.chunkCount() != builder.chunkCount() || previous.chunkSize() != CHUNK_SIZE) {
                throw ApiException.badRequest("cannot reuse index - previous index of '" + name + "' has "
                        + previous.chunkCount() + " chunks of " + previous.chunkSize() + " bytes, the new one "
                        + builder.chunkCount() + " chunks of " + CHUNK_SIZE + " bytes");
            }
            for (int i = 0; i < previous.chunkCount(); i++) {
                builder.set(i, previous.digest(i));
            }
        }
    }

    @Override
    public int wid() {
        return wid;
    }

    @Override
    public String archiveName() {
        return name;
    }

    @Override
    public String kind() {
        return "fixed";
    }

    /** Refuses an upload larger than the chunk size (at upload time). */
    void checkUploadSize(long chunkSize) {
        if (chunkSize > CHUNK_SIZE) {
            throw ApiException.badRequest("fixed writer '" + wid + "' - got large chunk (" + chunkSize + " > "
                    + CHUNK_SIZE + ")");
        }
    }

    @Override
    public synchronized void append(Digest digest, long offset, int length) {
        if (offset % CHUNK_SIZE != 0) {
            throw ApiException.badRequest("fixed writer '" + wid + "' - got unaligned chunk offset " + offset
                    + " (chunk size " + CHUNK_SIZE + ")");
        }
        long end = offset + length;
        if (end > size) {
            throw ApiException.badRequest("fixed writer '" + wid + "' - chunk at offset " + offset + " with "
                    + length + " bytes ends after the image size " + size);
        }
        if (length != CHUNK_SIZE && end != size) {
            throw ApiException.badRequest("fixed writer '" + wid + "' - chunk at offset " + offset + " has "
                    + length + " bytes, but only the last chunk may be shorter than " + CHUNK_SIZE);
        }
        builder.set((int) (offset / CHUNK_SIZE), digest);
        appended++;
    }

    /**
     * Checks the close parameters (§2.6) and builds the index.
     *
     * @throws ApiException naming the mismatch
     */
    synchronized FixedIndex close(long chunkCount, long closeSize, Digest csum, long ctime) {
        String prefix = "fixed writer '" + wid + "' close failed - ";
        if (chunkCount != appended) {
            throw ApiException.badRequest(prefix + "received wrong number of chunks (" + chunkCount + " != "
                    + appended + ")");
        }
        if (!incremental) {
            if (chunkCount != builder.chunkCount()) {
                throw ApiException.badRequest(prefix + "unexpected chunk count (" + chunkCount + " != "
                        + builder.chunkCount() + ")");
            }
            if (closeSize != size) {
                throw ApiException.badRequest(prefix + "unexpected file size (" + closeSize + " != " + size + ")");
            }
        }
        FixedIndex idx;
        try {
            idx = builder.build(UUID.randomUUID(), ctime);
        } catch (IllegalStateException e) {
            throw ApiException.badRequest(prefix + e.getMessage());
        }
        Digest computed = idx.computeCsum();
        if (!computed.equals(csum)) {
            throw ApiException.badRequest(prefix + "got unexpected checksum (" + csum.hex() + " != "
                    + computed.hex() + ")");
        }
        return idx;
    }
}
