package org.jpbs.server.backup;

import java.util.UUID;
import org.jpbs.core.FileFormats;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.server.http.ApiException;

/**
 * A fixed index being written ({@code docs/protocol.md#chunk-upload-and-known-chunks}, {@code docs/protocol.md#appending}, {@code docs/protocol.md#closing-an-index}): chunk size 4 MiB,
 * each appended chunk goes to slot {@code offset / 4 MiB} (offsets are chunk starts, so
 * appends may come in any order), only the chunk that ends at the image size may be shorter.
 * With {@code reuse-csum} the slots are pre-filled from the previous index (incremental) and
 * the close does not require every slot to be appended again. The digests are kept in a sparse
 * {@link DigestTable} charged to the session's budget, so announcing a huge image costs nothing
 * until chunks are appended.
 */
final class FixedWriter implements IndexWriter {
    /** The server's fixed chunk size: 4 MiB ({@code docs/protocol.md#chunk-upload-and-known-chunks}). */
    static final int CHUNK_SIZE = FileFormats.DEFAULT_FIXED_CHUNK_SIZE;

    private final int wid;
    private final String name;
    private final long size;
    private final boolean incremental;
    private final int chunkCount;
    private final DigestTable table;
    private int appended;

    /**
     * @param size     image size in bytes (>= 1)
     * @param previous index to pre-fill from (incremental), or null
     * @param budget   the session's digest memory budget
     * @throws ApiException 400 if the pre-filled digests exceed the budget
     */
    FixedWriter(int wid, String name, long size, FixedIndex previous, DigestTable.Budget budget) {
        this.wid = wid;
        this.name = name;
        this.size = size;
        this.chunkCount = FixedIndex.chunkCount(size, CHUNK_SIZE);
        this.table = new DigestTable(chunkCount, budget);
        this.incremental = previous != null;
        if (previous != null) {
            if (previous.chunkCount() != chunkCount || previous.chunkSize() != CHUNK_SIZE) {
                throw ApiException.badRequest("cannot reuse index - previous index of '" + name + "' has "
                        + previous.chunkCount() + " chunks of " + previous.chunkSize() + " bytes, the new one "
                        + chunkCount + " chunks of " + CHUNK_SIZE + " bytes");
            }
            try {
                for (int i = 0; i < previous.chunkCount(); i++) {
                    table.set(i, previous.digest(i));
                }
            } catch (RuntimeException e) {
                table.release();
                throw e;
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
        if (offset < 0 || offset > size || length > size - offset) { // no overflow of offset + length
            throw ApiException.badParam("offset-list", "fixed writer '" + wid + "' - chunk at offset " + offset
                    + " with " + length + " bytes ends after the image size " + size);
        }
        long end = offset + length;
        if (length != CHUNK_SIZE && end != size) {
            throw ApiException.badRequest("fixed writer '" + wid + "' - chunk at offset " + offset + " has "
                    + length + " bytes, but only the last chunk may be shorter than " + CHUNK_SIZE);
        }
        table.set((int) (offset / CHUNK_SIZE), digest);
        appended++;
    }

    /**
     * Checks the close parameters ({@code docs/protocol.md#closing-an-index}) and builds the index.
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
            if (chunkCount != this.chunkCount) {
                throw ApiException.badRequest(prefix + "unexpected chunk count (" + chunkCount + " != "
                        + this.chunkCount + ")");
            }
            if (closeSize != size) {
                throw ApiException.badRequest(prefix + "unexpected file size (" + closeSize + " != " + size + ")");
            }
        }
        FixedIndex idx;
        try {
            idx = new FixedIndex(UUID.randomUUID(), ctime, size, CHUNK_SIZE, table.toArray());
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

    /** Frees the digest pages (after close, or when the session ends with the writer open). */
    synchronized void release() {
        table.release();
    }
}
