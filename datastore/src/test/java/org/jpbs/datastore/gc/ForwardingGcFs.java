package org.jpbs.datastore.gc;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import org.jpbs.datastore.os.FileStat;

/** A {@link GcFs} that delegates everything to the real one; tests override single operations to inject faults. */
class ForwardingGcFs implements GcFs {
    final GcFs real = GcFs.local();

    @Override
    public Dir openDir(Path dir) throws IOException {
        return real.openDir(dir);
    }

    @Override
    public byte[] readFile(Path file) throws IOException {
        return real.readFile(file);
    }

    @Override
    public Marker openMarker(Path chunksDir) throws IOException {
        return real.openMarker(chunksDir);
    }

    @Override
    public FileStat stat(Path file) throws IOException {
        return real.stat(file);
    }

    @Override
    public void touchAtime(Path file) throws IOException {
        real.touchAtime(file);
    }

    @Override
    public void setAtime(Path file, Instant atime) throws IOException {
        real.setAtime(file, atime);
    }

    @Override
    public void delete(Path file) throws IOException {
        real.delete(file);
    }

    @Override
    public void deleteTree(Path dir) throws IOException {
        real.deleteTree(dir);
    }
}
