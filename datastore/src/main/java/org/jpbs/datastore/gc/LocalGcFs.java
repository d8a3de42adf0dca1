package org.jpbs.datastore.gc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.jpbs.core.digest.Digest;
import org.jpbs.datastore.os.AtomicFiles;
import org.jpbs.datastore.os.ChunkToucher;
import org.jpbs.datastore.os.DirHandle;
import org.jpbs.datastore.os.FileOps;
import org.jpbs.datastore.os.FileStat;
import org.jpbs.datastore.os.FileTimes;

/** The real {@link GcFs}: {@link DirHandle}, {@link ChunkToucher}, {@link FileTimes}, {@code java.nio}. */
final class LocalGcFs implements GcFs {
    static final LocalGcFs INSTANCE = new LocalGcFs();

    private LocalGcFs() {}

    @Override
    public Dir openDir(Path dir) throws IOException {
        DirHandle h = DirHandle.open(dir);
        return new Dir() {
            @Override
            public List<DirHandle.Entry> entries() throws IOException {
                return h.entries();
            }

            @Override
            public FileStat stat(String name) throws IOException {
                return h.stat(name);
            }

            @Override
            public void close() {
                h.close();
            }
        };
    }

    @Override
    public byte[] readFile(Path file) throws IOException {
        return Files.readAllBytes(file);
    }

    @Override
    public Marker openMarker(Path chunksDir) throws IOException {
        ChunkToucher t = ChunkToucher.open(chunksDir);
        return new Marker() {
            @Override
            public boolean touch(Digest digest) throws IOException {
                return t.touch(digest);
            }

            @Override
            public boolean touchBad(Digest digest, int n) throws IOException {
                return t.touchBad(digest, n);
            }

            @Override
            public long calls() {
                return t.calls();
            }

            @Override
            public void close() {
                t.close();
            }
        };
    }

    @Override
    public FileStat stat(Path file) throws IOException {
        return FileOps.real().stat(file);
    }

    @Override
    public void touchAtime(Path file) throws IOException {
        FileTimes.touchAtime(file);
    }

    @Override
    public void setAtime(Path file, Instant atime) throws IOException {
        FileTimes.setAtime(file, atime);
    }

    @Override
    public void delete(Path file) throws IOException {
        Files.deleteIfExists(file);
    }

    @Override
    public void deleteTree(Path dir) throws IOException {
        AtomicFiles.deleteTree(dir);
    }
}
