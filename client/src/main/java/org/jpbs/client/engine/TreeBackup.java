package org.jpbs.client.engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.jpbs.core.pxar.catalog.CatalogWriter;
import org.jpbs.client.pxar.fs.TreeArchiver;

/**
 * The file archives of one backup ({@code docs/pxar.md#backup-and-restore}): each directory
 * tree becomes a pxar stream chunked into {@code NAME.pxar.didx}, and every archive's entries go
 * into the one catalog {@code catalog.pcat1.didx} of the snapshot (a directory per archive,
 * named after its {@code .didx}), ended by {@link #finish} before the manifest, as the PBS
 * client does. Archives are written one after the other.
 */
final class TreeBackup {
    /** The catalog's name in a snapshot. */
    static final String CATALOG = "catalog.pcat1.didx";

    private final BackupEngine engine;
    private DynamicArchiveStream catalogStream;
    private CatalogWriter catalog;

    TreeBackup(BackupEngine engine) {
        this.engine = engine;
    }

    /** Archives {@code root} as {@code serverName} (a {@code .pxar.didx}). */
    synchronized DynamicArchiveStream.Result archive(String serverName, Path root, TreeArchiver.Options options,
            Consumer<String> warnings) throws IOException {
        if (catalog == null) {
            catalogStream = engine.openDynamicStream(CATALOG, DynamicArchiveStream.CATALOG_CHUNK_SIZE);
            catalog = new CatalogWriter(catalogStream);
        }
        DynamicArchiveStream out = engine.openDynamicStream(serverName, DynamicArchiveStream.AVERAGE_CHUNK_SIZE);
        try {
            catalog.startDirectory(serverName.getBytes(StandardCharsets.UTF_8));
            new TreeArchiver(options, catalog, warnings).archive(root, out);
            catalog.endDirectory();
            return out.finish();
        } finally {
            out.close();
        }
    }

    /** Ends the catalog if any archive was written; returns its result or null. */
    synchronized DynamicArchiveStream.Result finish() throws IOException {
        if (catalog == null) {
            return null;
        }
        try {
            catalog.finish();
            return catalogStream.finish();
        } finally {
            catalogStream.close();
        }
    }

    /** Stops the catalog's workers (the backup is aborted). */
    synchronized void abort() {
        if (catalogStream != null) {
            catalogStream.close();
        }
    }
}
