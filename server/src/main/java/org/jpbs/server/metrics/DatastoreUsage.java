package org.jpbs.server.metrics;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jpbs.datastore.config.DatastoreCache;
import org.jpbs.datastore.config.DatastoreConfig;
import org.jpbs.datastore.config.DatastoreLookupException;
import org.jpbs.datastore.gc.GcStatus;

/**
 * The usage of each configured datastore, read when asked: file system total/used/available
 * bytes (as {@code GET .../status}: used = total - unallocated) and, from the last garbage
 * collection's {@code .gc-status}, the chunk count and chunk bytes on disk (walking the chunk
 * store at every scrape would cost minutes on a large store). A datastore that cannot be read
 * is left out (logged).
 *
 * @param name       the datastore
 * @param total      bytes of the file system
 * @param used       bytes in use
 * @param avail      bytes available to the server
 * @param diskChunks chunks on disk at the last GC, empty if there was none
 * @param diskBytes  chunk bytes on disk at the last GC, empty if there was none
 */
public record DatastoreUsage(String name, long total, long used, long avail, Optional<Long> diskChunks,
                             Optional<Long> diskBytes) {
    private static final System.Logger LOG = System.getLogger(DatastoreUsage.class.getName());

    /** The usage of every datastore of {@code cache} that can be read. */
    public static List<DatastoreUsage> of(DatastoreCache cache) {
        List<DatastoreUsage> out = new ArrayList<>();
        List<DatastoreConfig> stores;
        try {
            stores = cache.list();
        } catch (DatastoreLookupException e) {
            LOG.log(Level.WARNING, "metrics: datastore list not readable: " + e.getMessage());
            return out;
        }
        for (DatastoreConfig c : stores) {
            try {
                out.add(read(c.name(), c.path()));
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.DEBUG, "metrics: datastore '" + c.name() + "' not readable: " + e.getMessage());
            }
        }
        return out;
    }

    static DatastoreUsage read(String name, Path root) throws IOException {
        FileStore fs = Files.getFileStore(root);
        long total = fs.getTotalSpace();
        Optional<GcStatus> gc = GcStatus.read(root);
        return new DatastoreUsage(name, total, total - fs.getUnallocatedSpace(), fs.getUsableSpace(),
                gc.map(GcStatus::diskChunks), gc.map(GcStatus::diskBytes));
    }
}
