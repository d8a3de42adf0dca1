package org.jpbs.datastore.os;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** {@link FileOps} of the operating system: {@code java.nio}, {@link AtomicFiles}, {@link FileTimes}, {@link FsSync}. */
final class RealFileOps implements FileOps {
    static final RealFileOps INSTANCE = new RealFileOps();

    private RealFileOps() {}

    @Override
    public byte[] readAllBytes(Path file) throws IOException {
        return Files.readAllBytes(file);
    }

    @Override
    public Path writeTemp(Path target, byte[] data, int off, int len, boolean fsync) throws IOException {
        return AtomicFiles.writeTemp(target, data, off, len, fsync);
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
    }

    @Override
    public void link(Path existing, Path link) throws IOException {
        Files.createLink(link, existing);
    }

    @Override
    public void delete(Path file) throws IOException {
        Files.deleteIfExists(file);
    }

    @Override
    public FileStat stat(Path file) throws IOException {
        Map<String, Object> a = Files.readAttributes(file,
                "unix:ino,size,lastAccessTime,lastModifiedTime,isRegularFile,isDirectory", LinkOption.NOFOLLOW_LINKS);
        long nanos = ((FileTime) a.get("lastAccessTime")).to(TimeUnit.NANOSECONDS);
        return new FileStat((Long) a.get("ino"), (Long) a.get("size"), Math.floorDiv(nanos, 1_000_000_000L),
                (int) Math.floorMod(nanos, 1_000_000_000L), ((FileTime) a.get("lastModifiedTime")).to(TimeUnit.SECONDS),
                (Boolean) a.get("isRegularFile"), (Boolean) a.get("isDirectory"));
    }

    @Override
    public void touchAtimeInPlace(Path file) throws IOException {
        FileTimes.touchAtimeInPlace(file);
    }

    @Override
    public void fsyncDirectory(Path dir) throws IOException {
        FsSync.fsyncDirectory(dir);
    }

    @Override
    public String toString() {
        return "FileOps.real()";
    }
}
