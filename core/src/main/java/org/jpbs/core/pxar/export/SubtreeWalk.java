package org.jpbs.core.pxar.export;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import org.jpbs.core.pxar.PxarAccessor;
import org.jpbs.core.pxar.PxarDecoder;
import org.jpbs.core.pxar.PxarEntry;

/**
 * Walks one entry of an archive and, for a directory, everything below it in archive order,
 * decoding only its range of the archive. Names are relative to the entry's parent
 * ({@code etc}, {@code etc/hosts} for {@code /etc}); for the archive root its children's paths
 * ({@code etc}, {@code etc/hosts}) and the root itself is not reported. Directory ends are not
 * reported either.
 */
final class SubtreeWalk {
    /** What is done with each entry; {@code d} gives a file's contents (valid during the call). */
    @FunctionalInterface
    interface Visitor {
        void visit(byte[] name, PxarEntry e, PxarDecoder d) throws IOException;
    }

    private SubtreeWalk() {}

    /** The length of the parent's path and its slash in {@code path} (0 at the top). */
    static int parentLength(byte[] path) {
        int cut = path.length - 1;
        while (cut >= 0 && path[cut] != '/') {
            cut--;
        }
        return cut + 1;
    }

    /** {@code out} for a writer that closes its stream when done: closing only flushes. */
    static OutputStream nonClosing(OutputStream out) {
        return new FilterOutputStream(out) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                out.flush();
            }
        };
    }

    static void walk(PxarAccessor archive, PxarAccessor.Node node, Visitor v) throws IOException {
        int prefix = parentLength(node.entry().path());
        try (PxarDecoder d = archive.decoder(node)) {
            int depth = 0;
            PxarEntry e;
            while ((e = d.next()) != null) {
                if (e.kind() == PxarEntry.Kind.DIRECTORY_END) {
                    if (--depth == 0) {
                        return;
                    }
                    continue;
                }
                if (e.kind() == PxarEntry.Kind.DIRECTORY) {
                    depth++;
                }
                byte[] name = Arrays.copyOfRange(e.path(), Math.min(prefix, e.path().length), e.path().length);
                if (name.length > 0) {
                    v.visit(name, e, d);
                }
                if (depth == 0) {
                    return; // not a directory: the entry alone
                }
            }
        }
    }
}
