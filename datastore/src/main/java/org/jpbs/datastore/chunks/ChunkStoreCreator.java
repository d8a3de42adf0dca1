package org.jpbs.datastore.chunks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.jpbs.datastore.lock.DatastoreLock;
import org.jpbs.datastore.os.AtomicFiles;

/**
 * Creates the on-disk skeleton of a datastore ({@code docs/formats.md#chunk-store-chunks}):
 * root 0755, {@code .chunks} 0750 with the 65,536 subdirectories {@code 0000..ffff} (0750),
 * an empty {@code .lock} 0644. Refuses a path that is a file, a non-empty directory, already
 * a datastore or inside one; on failure removes whatever it created.
 */
final class ChunkStoreCreator {
    static final String CHUNKS = ".chunks";
    private static final Set<PosixFilePermission> DIR_0750 = PosixFilePermissions.fromString("rwxr-x---");
    private static final Set<PosixFilePermission> DIR_0755 = PosixFilePermissions.fromString("rwxr-xr-x");
    private static final Set<PosixFilePermission> FILE_0644 = PosixFilePermissions.fromString("rw-r--r--");
    private static final HexFormat HEX = HexFormat.of();

    private ChunkStoreCreator() {}

    static void create(Path root) throws IOException {
        java.util.Optional<Path> outer = ChunkStores.enclosingDatastore(root);
        if (outer.isPresent()) {
            throw new IOException("cannot create datastore: " + root + " is inside the datastore " + outer.get());
        }
        boolean createdRoot = false;
        if (Files.exists(root, LinkOption.NOFOLLOW_LINKS) || Files.exists(root)) {
            if (!Files.isDirectory(root)) {
                throw new IOException("cannot create datastore: " + root + " exists and is not a directory");
            }
            if (Files.isDirectory(root.resolve(CHUNKS))) {
                throw new IOException("cannot create datastore: " + root + " is already a datastore (it has a .chunks directory)");
            }
            try (Stream<Path> s = Files.list(root)) {
                if (s.findAny().isPresent()) {
                    throw new IOException("cannot create datastore: " + root
                            + " is a non-empty directory and not a datastore");
                }
            }
        } else {
            if (root.getParent() != null) {
                Files.createDirectories(root.getParent());
            }
            Files.createDirectory(root);
            createdRoot = true;
            Files.setPosixFilePermissions(root, DIR_0755);
        }
        Path chunks = root.resolve(CHUNKS);
        Path lock = root.resolve(DatastoreLock.LOCK_FILE);
        try {
            Files.createDirectory(chunks);
            Files.setPosixFilePermissions(chunks, DIR_0750);
            createPrefixDirs(chunks);
            Files.newByteChannel(lock, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)).close();
            Files.setPosixFilePermissions(lock, FILE_0644);
        } catch (IOException | RuntimeException | Error e) {
            cleanup(root, chunks, lock, createdRoot, e);
            throw e;
        }
    }

    /** Name of prefix directory {@code i} (0..65535): 4 lowercase hex digits. */
    static String prefixName(int i) {
        return HEX.toHexDigits((short) i);
    }

    private static void createPrefixDirs(Path chunks) throws IOException {
        FileAttribute<Set<PosixFilePermission>> attr = PosixFilePermissions.asFileAttribute(DIR_0750);
        // mkdir is bound by file-system latency, not CPU: a few threads help even on 2 cores
        int workers = 8;
        runParallel(workers, i -> Files.createDirectory(chunks.resolve(prefixName(i)), attr));
        // mkdir applies the umask; fix the modes only if it stripped bits from 0750
        if (!Files.getPosixFilePermissions(chunks.resolve(prefixName(0))).equals(DIR_0750)) {
            runParallel(workers, i -> Files.setPosixFilePermissions(chunks.resolve(prefixName(i)), DIR_0750));
        }
    }

    private interface PrefixTask {
        void run(int prefix) throws IOException;
    }

    private static void runParallel(int workers, PrefixTask task) throws IOException {
        ExecutorService pool = Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "jpbs-create-chunkdirs");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> futures = new ArrayList<>();
            int per = 65536 / 64;
            for (int b = 0; b < 64; b++) {
                int from = b * per;
                futures.add(pool.submit(() -> {
                    for (int i = from; i < from + per; i++) {
                        task.run(i);
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while creating the .chunks directories", e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof IOException io) {
                throw io;
            }
            if (c instanceof RuntimeException re) {
                throw re;
            }
            throw new IOException("creating the .chunks directories failed: " + c, c);
        } finally {
            pool.shutdownNow();
        }
    }

    private static void cleanup(Path root, Path chunks, Path lock, boolean createdRoot, Throwable cause) {
        try {
            Files.deleteIfExists(lock);
            AtomicFiles.deleteTree(chunks);
            if (createdRoot) {
                Files.deleteIfExists(root);
            }
        } catch (IOException | RuntimeException e) {
            cause.addSuppressed(e); // best effort; the original error is what the caller needs to see
        }
    }
}
