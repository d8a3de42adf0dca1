package org.jpbs.testkit.faults;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import org.jpbs.datastore.gc.GcFs;
import org.jpbs.testkit.faults.FaultPlan.Op;

/**
 * A {@link GcFs} for garbage-collection tests: the chunk-file operations (rename, link, delete,
 * stat of a path, and the index reads) go through a {@link FaultPlan} as in {@link FaultyFileOps};
 * directory listing, marking and atime updates go straight to the delegate (normally
 * {@link GcFs#local()}).
 */
public final class FaultyGcFs extends FaultyFileOps implements GcFs {
    private final GcFs delegate;

    /** Faults from {@code plan} in front of {@code delegate}. */
    public FaultyGcFs(GcFs delegate, FaultPlan plan) {
        super(delegate, plan);
        this.delegate = delegate;
    }

    @Override
    public Dir openDir(Path dir) throws IOException {
        return delegate.openDir(dir);
    }

    @Override
    public byte[] readFile(Path file) throws IOException {
        return readAllBytes(file);
    }

    @Override
    public Marker openMarker(Path chunksDir) throws IOException {
        return delegate.openMarker(chunksDir);
    }

    @Override
    public void touchAtime(Path file) throws IOException {
        delegate.touchAtime(file);
    }

    @Override
    public void setAtime(Path file, Instant atime) throws IOException {
        delegate.setAtime(file, atime);
    }

    @Override
    public void deleteTree(Path dir) throws IOException {
        plan().before(Op.DELETE, dir);
        delegate.deleteTree(dir);
    }
}
