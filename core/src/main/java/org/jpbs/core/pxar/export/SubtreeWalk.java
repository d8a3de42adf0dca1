package org.jpbs.core.pxar.export;

import java.io.IOException;
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

    static void walk(PxarAccessor archive, PxarAccessor.Node node, Visitor v) throws IOException {
        byte[] own = node.entry().path();
        int cut = own.length - 1;
        while (cut >= 0 && own[cut] != '/') {
            cut--;
        }
        int prefix = cut + 1; // the parent's path and its slash
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
