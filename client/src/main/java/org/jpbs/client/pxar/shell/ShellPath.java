package org.jpbs.client.pxar.shell;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jpbs.core.pxar.PxarAccessor;
import org.jpbs.core.pxar.catalog.CatalogDump;
import org.jpbs.core.pxar.catalog.CatalogEntry;
import org.jpbs.core.pxar.catalog.CatalogReader;

/**
 * Path resolution of the catalog shell: a position is the stack of catalog entries from the
 * archive's root directory (element 0) down to an entry. {@code /} is the archive root,
 * {@code .} and {@code ..} work as usual, and when a walk continues past a symlink its target
 * is read from the archive and followed (relative to the link's directory; at most 40 links).
 */
final class ShellPath {
    static final int MAX_SYMLINKS = 40;

    private final CatalogReader catalog;
    private final PxarAccessor archive;

    ShellPath(CatalogReader catalog, PxarAccessor archive) {
        this.catalog = catalog;
        this.archive = archive;
    }

    /**
     * The stack {@code path} leads to from {@code from}.
     *
     * @param follow whether symlinks on the way are followed (else: "target is a symlink")
     */
    List<CatalogEntry> resolve(List<CatalogEntry> from, byte[] path, boolean follow) throws IOException {
        int[] links = {0};
        return walk(from, path, follow ? links : null);
    }

    private List<CatalogEntry> walk(List<CatalogEntry> from, byte[] path, int[] links) throws IOException {
        List<CatalogEntry> st = new ArrayList<>(path.length > 0 && path[0] == '/' ? from.subList(0, 1) : from);
        int i = 0;
        while (i < path.length) {
            int end = i;
            while (end < path.length && path[end] != '/') {
                end++;
            }
            byte[] c = Arrays.copyOfRange(path, i, end);
            i = end + 1;
            if (c.length == 0) {
                continue;
            }
            if (c.length == 2 && c[0] == '.' && c[1] == '.') {
                if (st.size() > 1) {
                    st.remove(st.size() - 1);
                }
                continue;
            }
            if (last(st).type() == 'l') {
                st = follow(st, links);
            }
            if (c.length == 1 && c[0] == '.') {
                continue;
            }
            CatalogEntry parent = last(st);
            if (!parent.isDirectory()) {
                throw new ShellException("parent is not a directory - internal error");
            }
            CatalogEntry found = null;
            for (CatalogEntry e : catalog.list(parent)) {
                if (Arrays.equals(e.name(), c)) {
                    found = e;
                    break;
                }
            }
            if (found == null) {
                throw new ShellException("no such file or directory: " + CatalogDump.quote(c));
            }
            st.add(found);
        }
        return st;
    }

    private List<CatalogEntry> follow(List<CatalogEntry> st, int[] links) throws IOException {
        if (links == null) {
            throw new ShellException("target is a symlink");
        }
        if (++links[0] > MAX_SYMLINKS) {
            throw new ShellException("too many levels of symbolic links");
        }
        PxarAccessor.Node n = archive.lookup(relative(st));
        if (n == null || n.entry().linkTarget() == null) {
            throw new ShellException("symlink in the catalog was not a symlink in the archive");
        }
        return walk(st.subList(0, st.size() - 1), n.entry().linkTarget(), links);
    }

    /** The path of a stack from the archive root: {@code /dir/file}, {@code /} for the root. */
    static byte[] absolute(List<CatalogEntry> st) {
        if (st.size() <= 1) {
            return new byte[] {'/'};
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (CatalogEntry e : st.subList(1, st.size())) {
            out.write('/');
            out.writeBytes(e.name());
        }
        return out.toByteArray();
    }

    /** The path below the archive root without the leading slash (what the accessor looks up). */
    static byte[] relative(List<CatalogEntry> st) {
        byte[] a = absolute(st);
        return Arrays.copyOfRange(a, 1, a.length);
    }

    static CatalogEntry last(List<CatalogEntry> st) {
        return st.get(st.size() - 1);
    }
}
