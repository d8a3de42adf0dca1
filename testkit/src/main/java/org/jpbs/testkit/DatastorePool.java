package org.jpbs.testkit;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.jpbs.datastore.chunks.ChunkStores;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.os.AtomicFiles;
import org.jpbs.datastore.snapshot.Datastore;

/**
 * Empty datastores for tests without making and removing 65,536 chunk directories each time
 * (about a second of system time per datastore, even on tmpfs): a datastore a test is done with
 * ({@link #recycleUnder}, called before its temporary directory is deleted) is moved into a
 * per-JVM pool, and {@link #create} moves a pooled one into place after resetting it to exactly
 * what {@link Datastore#create} makes: root 0755 holding only {@code .chunks} (0750, the 65,536
 * prefix directories 0750, all empty) and an empty {@code .lock} (0644). A datastore that differs
 * in any other way is deleted instead of reused.
 *
 * <p>Only on tmpfs, where an empty directory's size tells that it is empty, so that the reset
 * costs one {@code stat} per prefix directory; elsewhere (or if the pool's directory is not on the
 * file system of the test's directory) {@link #create} is {@link Datastore#create} and nothing is
 * recycled. {@code -Djpbs.test.datastorePool=false} turns it off. The pool keeps at most
 * {@value #MAX} datastores and deletes them when the JVM exits.
 */
public final class DatastorePool {
    private static final int MAX = 4;
    private static final Set<PosixFilePermission> DIR_0750 = PosixFilePermissions.fromString("rwxr-x---");
    private static final Set<PosixFilePermission> DIR_0755 = PosixFilePermissions.fromString("rwxr-xr-x");
    private static final Set<PosixFilePermission> FILE_0644 = PosixFilePermissions.fromString("rw-r--r--");
    private static final AtomicInteger SEQ = new AtomicInteger();
    private static final Deque<Path> FREE = new ArrayDeque<>();
    private static Path home;
    private static long emptyDirSize = -1;
    private static boolean initialized;

    private DatastorePool() {}

    /**
     * Makes an empty datastore at {@code root} as {@link Datastore#create} does (which it calls
     * when the pool is empty or off, or when {@code root} exists or is inside a datastore: those
     * cases keep its checks).
     */
    public static void create(Path root, SyncLevel syncLevel) throws IOException {
        Path r = root.toAbsolutePath().normalize();
        // an existing path, or one inside a datastore, is left to Datastore.create and its refusals
        if (!Files.exists(r, LinkOption.NOFOLLOW_LINKS) && ChunkStores.enclosingDatastore(r).isEmpty()) {
            Path pooled;
            while ((pooled = take()) != null) {
                if (reset(pooled)) {
                    Files.createDirectories(r.getParent());
                    try {
                        Files.move(pooled, r, StandardCopyOption.ATOMIC_MOVE);
                        return;
                    } catch (IOException e) {
                        AtomicFiles.deleteTree(pooled);
                        break;
                    }
                }
                AtomicFiles.deleteTree(pooled);
            }
        }
        Datastore.create(r, syncLevel);
    }

    /** {@link #create} and {@link Datastore#open(Path, SyncLevel)}: what {@link Datastore#create} returns. */
    public static Datastore datastore(Path root, SyncLevel syncLevel) throws IOException {
        create(root, syncLevel);
        return Datastore.open(root, syncLevel);
    }

    /**
     * Moves the datastores found below {@code dir} (a temporary directory a test is done with; up
     * to 4 levels down) into the pool while it has room; leaves the others.
     */
    public static void recycleUnder(Path dir) throws IOException {
        recycle(dir, false);
    }

    /** As {@link #recycleUnder}, {@code dir} itself included (a tree about to be deleted). */
    public static void recycleIn(Path dir) throws IOException {
        recycle(dir, true);
    }

    private static void recycle(Path dir, boolean includeDir) throws IOException {
        if (pool() == null || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        List<Path> stores = new ArrayList<>();
        Files.walkFileTree(dir, Set.of(), 5, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
                if (d.getFileName() != null && d.getFileName().toString().equals(".chunks")) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                if ((includeDir || !d.equals(dir)) && Files.isDirectory(d.resolve(".chunks"), LinkOption.NOFOLLOW_LINKS)) {
                    stores.add(d);
                    return FileVisitResult.SKIP_SUBTREE;
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException exc) {
                return FileVisitResult.CONTINUE;
            }
        });
        for (Path ds : stores) {
            if (!give(ds)) {
                return;
            }
        }
    }

    /** Moves {@code ds} into the pool if it has room; false if it was left where it is. */
    private static boolean give(Path ds) {
        Path home = pool();
        synchronized (FREE) {
            if (home == null || FREE.size() >= MAX) {
                return false;
            }
            Path slot = home.resolve("ds-" + SEQ.incrementAndGet());
            try {
                Files.move(ds, slot, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                return false;
            }
            FREE.add(slot);
            return true;
        }
    }

    /** How many datastores the pool holds (tests). */
    static int pooled() {
        synchronized (FREE) {
            return FREE.size();
        }
    }

    /** Takes the pooled datastores out of the pool, still in its directory (tests: {@link #putBack}). */
    static List<Path> takeAll() {
        synchronized (FREE) {
            List<Path> all = new ArrayList<>(FREE);
            FREE.clear();
            return all;
        }
    }

    /** Returns datastores of {@link #takeAll} to the pool. */
    static void putBack(List<Path> stores) {
        synchronized (FREE) {
            FREE.addAll(stores);
        }
    }

    private static Path take() {
        synchronized (FREE) {
            return FREE.poll();
        }
    }

    /** Resets a pooled datastore to the state of a new one; false if it is not a plain datastore. */
    private static boolean reset(Path ds) throws IOException {
        if (!mode(ds, DIR_0755)) {
            return false;
        }
        Path chunks = ds.resolve(".chunks");
        Path lock = ds.resolve(".lock");
        try (DirectoryStream<Path> s = Files.newDirectoryStream(ds)) {
            for (Path p : s) {
                String n = p.getFileName().toString();
                if (!n.equals(".chunks") && !n.equals(".lock")) {
                    AtomicFiles.deleteTree(p);
                }
            }
        }
        if (!mode(chunks, DIR_0750)) {
            return false;
        }
        int prefixes = 0;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(chunks)) {
            for (Path p : s) {
                if (!isPrefixName(p.getFileName().toString())) {
                    return false;
                }
                PosixFileAttributes a = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (!a.isDirectory() || !a.permissions().equals(DIR_0750)) {
                    return false;
                }
                if (a.size() != emptyDirSize) {
                    try (DirectoryStream<Path> files = Files.newDirectoryStream(p)) {
                        for (Path f : files) {
                            AtomicFiles.deleteTree(f);
                        }
                    }
                }
                prefixes++;
            }
        }
        if (prefixes != 65536) {
            return false;
        }
        Files.deleteIfExists(lock);
        Files.newByteChannel(lock, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)).close();
        Files.setPosixFilePermissions(lock, FILE_0644);
        return true;
    }

    private static boolean mode(Path dir, Set<PosixFilePermission> perms) throws IOException {
        try {
            PosixFileAttributes a = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return a.isDirectory() && a.permissions().equals(perms);
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    private static boolean isPrefixName(String n) {
        if (n.length() != 4) {
            return false;
        }
        for (int i = 0; i < 4; i++) {
            char c = n.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    /** The pool's directory on /dev/shm, made on first use; null if the pool is off. */
    private static synchronized Path pool() {
        if (!initialized) {
            initialized = true;
            try {
                home = open();
            } catch (IOException | UnsupportedOperationException e) {
                home = null;
            }
        }
        return home;
    }

    private static Path open() throws IOException {
        if ("false".equals(System.getProperty("jpbs.test.datastorePool"))) {
            return null;
        }
        Path shm = Path.of("/dev/shm");
        if (!Files.isDirectory(shm) || !Files.isWritable(shm) || !Files.getFileStore(shm).type().equals("tmpfs")) {
            return null;
        }
        Path dir = Files.createTempDirectory(shm, "jpbs-datastore-pool-");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                AtomicFiles.deleteTree(dir);
            } catch (IOException e) {
                // a leftover in /dev/shm; nothing else to do at exit
            }
        }, "jpbs-datastore-pool-cleanup"));
        // an empty directory's size must differ from that of one with an entry
        Path probe = Files.createDirectory(dir.resolve("probe"));
        long empty = Files.size(probe);
        Files.createFile(probe.resolve("f"));
        long full = Files.size(probe);
        Files.delete(probe.resolve("f"));
        long again = Files.size(probe);
        Files.delete(probe);
        if (full == empty || again != empty) {
            return null;
        }
        emptyDirSize = empty;
        return dir;
    }
}
