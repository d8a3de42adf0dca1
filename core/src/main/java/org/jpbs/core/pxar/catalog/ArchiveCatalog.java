package org.jpbs.core.pxar.catalog;

import java.io.IOException;
import java.io.InputStream;
import org.jpbs.core.pxar.PxarDecoder;
import org.jpbs.core.pxar.PxarEntry;
import org.jpbs.core.pxar.PxarFormatException;

/**
 * Catalog entries taken from a file archive itself rather than from {@code catalog.pcat1}
 * ({@code docs/pxar.md#catalog-of-split-archives}): a snapshot of split archives
 * ({@code --change-detection-mode data|metadata}) has no catalog, and the PBS client lists their
 * metadata archives ({@code NAME.mpxar.didx}, which hold every entry and no file contents)
 * instead. The stream is decoded in order; every entry goes to the catalog as the backup would
 * have written it (files with size and mtime, directories with their children in archive
 * order), below a directory named after the archive.
 */
public final class ArchiveCatalog {
    private ArchiveCatalog() {}

    /**
     * Adds the archive {@code name} (e.g. {@code root.mpxar.didx}) with the entries of the pxar
     * stream {@code archive} (a metadata or a unified stream) to {@code catalog}.
     *
     * @throws PxarFormatException if the stream is not a valid pxar archive
     */
    public static void add(CatalogWriter catalog, byte[] name, InputStream archive) throws IOException {
        PxarDecoder d = new PxarDecoder(archive);
        PxarEntry root = d.next();
        if (root == null || root.kind() != PxarEntry.Kind.DIRECTORY) {
            throw new PxarFormatException(0, "the archive does not start with its root directory");
        }
        catalog.startDirectory(name);
        int depth = 1;
        for (PxarEntry e = d.next(); e != null; e = d.next()) {
            switch (e.kind()) {
                case DIRECTORY -> {
                    catalog.startDirectory(e.name());
                    depth++;
                }
                case DIRECTORY_END -> {
                    catalog.endDirectory();
                    depth--;
                }
                case FILE -> catalog.addFile(e.name(), e.fileSize(), e.metadata().stat().mtimeSecs());
                case SYMLINK -> catalog.addOther('l', e.name());
                case HARDLINK -> catalog.addOther('h', e.name());
                case DEVICE -> catalog.addOther(e.metadata().stat().fileType() == 0060000 ? 'b' : 'c', e.name());
                case FIFO -> catalog.addOther('p', e.name());
                case SOCKET -> catalog.addOther('s', e.name());
            }
        }
        if (depth != 0) {
            throw new PxarFormatException(0, "the archive ends inside a directory");
        }
    }
}
