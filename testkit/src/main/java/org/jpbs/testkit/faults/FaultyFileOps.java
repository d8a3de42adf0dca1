package org.jpbs.testkit.faults;

import java.io.IOException;
import java.nio.file.Path;
import org.jpbs.datastore.os.FileOps;
import org.jpbs.datastore.os.FileStat;
import org.jpbs.testkit.faults.FaultPlan.Op;

/**
 * A {@link FileOps} that runs each operation through a {@link FaultPlan} before handing it to a
 * delegate (normally {@link FileOps#real()}). Give it to
 * {@link org.jpbs.datastore.chunks.ChunkStores#open(Path, org.jpbs.datastore.chunks.SyncLevel, FileOps)}
 * or {@link org.jpbs.datastore.snapshot.Datastore#open(Path, org.jpbs.datastore.chunks.SyncLevel, FileOps)}.
 * A crash during a write leaves a partial temporary file, as a killed process would.
 */
public class FaultyFileOps implements FileOps {
    private final FileOps delegate;
    private final FaultPlan plan;

    /** Faults from {@code plan} in front of {@code delegate}. */
    public FaultyFileOps(FileOps delegate, FaultPlan plan) {
        this.delegate = delegate;
        this.plan = plan;
    }

    /** The plan. */
    public FaultPlan plan() {
        return plan;
    }

    @Override
    public byte[] readAllBytes(Path file) throws IOException {
        plan.before(Op.READ, file);
        byte[] data = delegate.readAllBytes(file);
        plan.maybeFlip(data, file);
        return data;
    }

    @Override
    public Path writeTemp(Path target, byte[] data, int off, int len, boolean fsync) throws IOException {
        switch (plan.fate(Op.WRITE, target)) {
            case CRASH -> {
                delegate.writeTemp(target, data, off, plan.prefixLength(len), false); // the part that made it to disk
                throw new SimulatedCrash("WRITE " + target);
            }
            case SHORT -> {
                return delegate.writeTemp(target, data, off, plan.prefixLength(len), fsync);
            }
            default -> {
                return delegate.writeTemp(target, data, off, len, fsync);
            }
        }
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        plan.before(Op.RENAME, from);
        delegate.rename(from, to);
    }

    @Override
    public void link(Path existing, Path link) throws IOException {
        plan.before(Op.LINK, existing);
        delegate.link(existing, link);
    }

    @Override
    public void delete(Path file) throws IOException {
        plan.before(Op.DELETE, file);
        delegate.delete(file);
    }

    @Override
    public FileStat stat(Path file) throws IOException {
        plan.before(Op.STAT, file);
        return delegate.stat(file);
    }

    @Override
    public void touchAtimeInPlace(Path file) throws IOException {
        plan.before(Op.TOUCH, file);
        delegate.touchAtimeInPlace(file);
    }

    @Override
    public void fsyncDirectory(Path dir) throws IOException {
        plan.before(Op.FSYNC, dir);
        delegate.fsyncDirectory(dir);
    }
}
