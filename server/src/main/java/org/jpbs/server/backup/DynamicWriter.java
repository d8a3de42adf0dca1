package org.jpbs.server.backup;

import java.util.UUID;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.DynamicIndex;
import org.jpbs.core.index.DynamicIndexBuilder;
import org.jpbs.server.http.ApiException;

/**
 * A dynamic index being written ({@code docs/protocol.md#appending}, {@code docs/protocol.md#closing-an-index}): chunks are
 * appended in stream order, each {@code offset} (the chunk start) must equal the current end,
 * and the index stores end offsets.
 */
final class DynamicWriter implements IndexWriter {
    private final int wid;
    private final String name;
    private final DynamicIndexBuilder builder = new DynamicIndexBuilder();

    DynamicWriter(int wid, String name) {
        this.wid = wid;
        this.name = name;
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
        return "dynamic";
    }

    @Override
    public synchronized void append(Digest digest, long offset, int length) {
        long end = builder.size();
        if (offset != end) {
            throw ApiException.badRequest("dynamic writer '" + wid + "' append chunk failed - got strange chunk offset ("
                    + offset + " != " + end + ")");
        }
        if (length > Long.MAX_VALUE - end) {
            throw ApiException.badParam("offset-list", "dynamic writer '" + wid + "' - chunk at offset " + offset
                    + " with " + length + " bytes ends beyond the largest archive size " + Long.MAX_VALUE);
        }
        builder.append(end + length, digest);
    }

    /**
     * Checks the close parameters ({@code docs/protocol.md#closing-an-index}) and builds the index.
     *
     * @throws ApiException naming the mismatch
     */
    synchronized DynamicIndex close(long chunkCount, long size, Digest csum, long ctime) {
        String prefix = "dynamic writer '" + wid + "' close failed - ";
        if (chunkCount != builder.chunkCount()) {
            throw ApiException.badRequest(prefix + "received wrong number of chunks (" + chunkCount + " != "
                    + builder.chunkCount() + ")");
        }
        if (size != builder.size()) {
            throw ApiException.badRequest(prefix + "received wrong size (" + size + " != " + builder.size() + ")");
        }
        DynamicIndex idx = builder.build(UUID.randomUUID(), ctime);
        Digest computed = idx.computeCsum();
        if (!computed.equals(csum)) {
            throw ApiException.badRequest(prefix + "got unexpected checksum (" + csum.hex() + " != "
                    + computed.hex() + ")");
        }
        return idx;
    }
}
