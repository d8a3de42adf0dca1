package org.jpbs.core.pxar;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;

/**
 * The events of an archive in archive order, as an extractor consumes them: the whole stream
 * ({@link PxarDecoder}) or only selected parts of it read by random access
 * ({@link SelectiveSource}).
 */
public interface EntrySource extends Closeable {
    /** The next entry, or null at the end (after the root's {@link PxarEntry.Kind#DIRECTORY_END}). */
    PxarEntry next() throws IOException;

    /** The contents of the file entry {@link #next()} just returned (valid until the next call). */
    InputStream contents() throws IOException;
}
