package org.jpbs.client.pxar.fs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.jpbs.core.pxar.Metadata;

/**
 * The look-ahead of {@code --change-detection-mode metadata}
 * ({@code docs/pxar.md#metadata-change-detection}): unchanged files whose previous payloads
 * follow each other in the previous payload stream are held (their stat and metadata; no open
 * descriptor, no contents), and every entry after them waits in archive order, until the run ends: a changed file,
 * a file whose previous payload does not continue the run, {@value #MAX_FILES} held files (then
 * the next run goes on in the chunk this one ends in), or the end of the archive. Then the run's payload range is offered to the {@link PreviousArchive}:
 * taken over as whole chunks, the held files become payload references; refused (too much
 * padding), they are read and encoded as new files. Not thread-safe.
 */
final class Lookahead implements AutoCloseable {
    /** Most files held at once, as pxar's look-ahead cache. */
    static final int MAX_FILES = 512;

    /** An entry written when its turn comes. */
    @FunctionalInterface
    interface Step {
        void run() throws IOException;
    }

    /** An unchanged file held (not open); {@code previousOffset} is its previous payload offset. */
    record Held(byte[] name, byte[] path, Sys.FileStat stat, Metadata metadata, long previousOffset,
            long[] linkOffset) {}

    /** Writes held files. */
    interface Writer {
        /** Encodes the file with its contents (opened again to read them). */
        void read(Held f) throws IOException;

        /** Encodes the file as a reference to payload offset {@code payloadOffset}. */
        void reference(Held f, long payloadOffset) throws IOException;

        /** {@code bytes} of reused chunks were appended to the payload stream. */
        void appended(long bytes);
    }

    private final PreviousArchive previous;
    private final Writer writer;
    private final List<Object> items = new ArrayList<>();
    private int files;
    private int next;
    private long start;
    private long end;

    Lookahead(PreviousArchive previous, Writer writer) {
        this.previous = previous;
        this.writer = writer;
    }

    /** Runs {@code s} now, or after the held files if there are any. */
    void step(Step s) throws IOException {
        if (files > 0) {
            items.add(s);
        } else {
            s.run();
        }
    }

    /** Holds an unchanged file whose previous payload is {@code [from, to)}. */
    void hold(Held f, long from, long to) throws IOException {
        if (files > 0 && from != end) {
            flush(false);
        } else if (files >= MAX_FILES) {
            flush(true); // the run goes on: the next one starts in the chunk this one ends in
        }
        if (files == 0) {
            start = from;
        }
        end = to;
        items.add(f);
        files++;
    }

    /** Ends the run: writes the held files (reused or read) and the entries after them. */
    void flush() throws IOException {
        flush(false);
    }

    /** @param continued the next file continues the run (only the held-file limit ends it) */
    private void flush(boolean continued) throws IOException {
        if (files == 0) {
            return;
        }
        PreviousArchive.Placement p = previous.reuse(start, end, continued);
        if (p != null) {
            writer.appended(p.appended());
        }
        files = 0;
        while (next < items.size()) {
            Object o = items.get(next++);
            if (o instanceof Held f) {
                if (p != null) {
                    writer.reference(f, p.offset() + (f.previousOffset() - start));
                } else {
                    writer.read(f);
                }
            } else {
                ((Step) o).run();
            }
        }
        items.clear();
        next = 0;
    }

    /** Drops what is still held (after a failure). */
    @Override
    public void close() {
        items.clear();
        next = 0;
        files = 0;
    }
}
