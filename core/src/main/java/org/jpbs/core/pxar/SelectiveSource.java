package org.jpbs.core.pxar;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;

/**
 * The events of only some entries of an archive, read by random access
 * ({@code docs/pxar.md#random-access}): the root, and below it the children a {@link Plan}
 * names for each directory it enters (looked up by name in the goodbye tables, in the order
 * given, which should be archive order so that hardlink targets come first). Nothing else of
 * the archive is read: restoring one file of a large archive reads the chunks of the goodbye
 * tables on its path and of the file itself. The result has the shape of the whole archive
 * (directories opened and closed), so an extractor can consume it as it consumes the stream.
 */
public final class SelectiveSource implements EntrySource {
    /** Which children of a directory to visit. */
    @FunctionalInterface
    public interface Plan {
        /**
         * The names of the children of the directory at {@code dirPath} (below the archive root,
         * no leading slash; empty for the root) to visit, in archive order; a directory named
         * here is entered and its own children asked for. Empty: none.
         */
        List<byte[]> children(byte[] dirPath) throws IOException;
    }

    private record Frame(PxarAccessor.Node dir, Iterator<byte[]> names) {}

    private final PxarAccessor archive;
    private final Plan plan;
    private final ArrayDeque<Frame> stack = new ArrayDeque<>();
    private PxarAccessor.Node current;
    private boolean started;

    public SelectiveSource(PxarAccessor archive, Plan plan) {
        this.archive = archive;
        this.plan = plan;
    }

    @Override
    public PxarEntry next() throws IOException {
        current = null;
        if (!started) {
            started = true;
            return enter(archive.root());
        }
        while (!stack.isEmpty()) {
            Frame top = stack.peek();
            if (!top.names().hasNext()) {
                stack.pop();
                PxarEntry d = top.dir().entry();
                return new PxarEntry(PxarEntry.Kind.DIRECTORY_END, d.path(), d.metadata(), 0, null, 0, 0, 0,
                        d.fileOffset(), -1);
            }
            byte[] name = top.names().next();
            PxarAccessor.Node n = archive.child(top.dir(), name);
            if (n == null) {
                throw new PxarFormatException(top.dir().offset(), top.dir().entry().displayPath() + ": no entry '"
                        + new String(name, java.nio.charset.StandardCharsets.UTF_8) + "' in the archive");
            }
            if (n.isDirectory()) {
                return enter(n);
            }
            current = n;
            return n.entry();
        }
        return null;
    }

    private PxarEntry enter(PxarAccessor.Node dir) throws IOException {
        stack.push(new Frame(dir, plan.children(dir.entry().path()).iterator()));
        return dir.entry();
    }

    @Override
    public InputStream contents() throws IOException {
        if (current == null || current.entry().kind() != PxarEntry.Kind.FILE) {
            throw new IllegalStateException("no file entry to read");
        }
        return archive.open(current);
    }

    @Override
    public void close() {
        stack.clear();
    }
}
