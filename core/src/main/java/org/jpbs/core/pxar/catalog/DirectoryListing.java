package org.jpbs.core.pxar.catalog;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jpbs.core.pxar.PxarAccessor;
import org.jpbs.core.pxar.PxarEntry;
import org.jpbs.core.pxar.PxarFormat;
import org.jpbs.core.pxar.Stat;

/**
 * One directory's entries as PBS's content API lists them ({@code GET .../catalog},
 * {@code docs/api.md#file-archives-get-catalog-get-pxar-file-download}), from the catalog or, for an archive named directly (a
 * split archive's {@code .mpxar}), from the archive itself through its goodbye tables.
 */
public final class DirectoryListing {
    /**
     * One listed entry.
     *
     * @param path  the full path PBS reports (base64-encoded by the API)
     * @param type  the catalog type letter: d f l h b c p s
     * @param size  a file's size, else -1
     * @param mtime a file's modification time (epoch seconds), meaningful only for files
     */
    public record Item(byte[] path, char type, long size, long mtime) {
        /** The last path component. */
        public byte[] name() {
            int i = path.length - 1;
            while (i >= 0 && path[i] != '/') {
                i--;
            }
            return Arrays.copyOfRange(path, i + 1, path.length);
        }

        /** False for a directory, which has children. */
        public boolean leaf() {
            return type != 'd';
        }

        public boolean isFile() {
            return type == 'f';
        }
    }

    private DirectoryListing() {}

    /**
     * The entries of the catalog directory at {@code path} ({@code /} the root, whose entries
     * are the archives; then {@code /root.pxar.didx/etc}): paths as PBS builds them, the path
     * without its leading slash, a slash and the name ({@code /root.pxar.didx} at the root,
     * {@code root.pxar.didx/etc/hosts} below).
     *
     * @throws CatalogLookupException as PBS: the path is missing, or is not a directory
     */
    public static List<Item> fromCatalog(CatalogReader catalog, byte[] path) throws IOException {
        CatalogEntry dir = catalog.lookup(path);
        if (!dir.isDirectory()) {
            throw new CatalogLookupException("parent is not a directory - internal error");
        }
        byte[] prefix = path.length > 0 && path[0] == '/' ? Arrays.copyOfRange(path, 1, path.length) : path;
        List<Item> out = new ArrayList<>();
        for (CatalogEntry e : catalog.list(dir)) {
            byte[] p = new byte[prefix.length + 1 + e.name().length];
            System.arraycopy(prefix, 0, p, 0, prefix.length);
            p[prefix.length] = '/';
            System.arraycopy(e.name(), 0, p, prefix.length + 1, e.name().length);
            out.add(e.type() == 'f' ? new Item(p, 'f', e.size(), e.mtime()) : new Item(p, e.type(), -1, 0));
        }
        return out;
    }

    /**
     * The entries of the archive directory at {@code path} (below the archive root), read
     * from the archive: paths {@code /etc/hosts}, as PBS lists a metadata archive.
     *
     * @throws CatalogLookupException {@code lookup failed - error opening '"PATH"'}, or the
     *         path is not a directory
     */
    public static List<Item> fromArchive(PxarAccessor archive, byte[] path) throws IOException {
        PxarAccessor.Node dir = archive.lookup(path);
        if (dir == null) {
            throw new CatalogLookupException("lookup failed - error opening '" + CatalogDump.quote(path) + "'");
        }
        if (!dir.isDirectory()) {
            throw new CatalogLookupException("expected directory entry, got entry kind '"
                    + kindName(dir.entry()) + "'");
        }
        List<Item> out = new ArrayList<>();
        for (PxarAccessor.Node n : archive.list(dir)) {
            PxarEntry e = n.entry();
            byte[] p = new byte[e.path().length + 1];
            p[0] = '/';
            System.arraycopy(e.path(), 0, p, 1, e.path().length);
            char type = typeOf(e);
            out.add(type == 'f' ? new Item(p, 'f', e.fileSize(), seconds(e.metadata().stat())) : new Item(p, type, -1, 0));
        }
        return out;
    }

    /** The catalog letter of an archive entry. */
    public static char typeOf(PxarEntry e) {
        return switch (e.kind()) {
            case DIRECTORY, DIRECTORY_END -> 'd';
            case FILE -> 'f';
            case SYMLINK -> 'l';
            case HARDLINK -> 'h';
            case DEVICE -> e.metadata().stat().fileType() == PxarFormat.S_IFBLK ? 'b' : 'c';
            case FIFO -> 'p';
            case SOCKET -> 's';
        };
    }

    /** PBS's name of an entry kind in messages ({@code File}, {@code Symlink}, ...). */
    public static String kindName(PxarEntry e) {
        return switch (e.kind()) {
            case DIRECTORY, DIRECTORY_END -> "Directory";
            case FILE -> "File";
            case SYMLINK -> "Symlink";
            case HARDLINK -> "Hardlink";
            case DEVICE -> "Device";
            case FIFO -> "Fifo";
            case SOCKET -> "Socket";
        };
    }

    /** Whole seconds of an mtime, truncated toward zero as PBS does (−1.5 s is −1). */
    static long seconds(Stat st) {
        return st.mtimeSecs() < 0 && st.mtimeNanos() > 0 ? st.mtimeSecs() + 1 : st.mtimeSecs();
    }
}
