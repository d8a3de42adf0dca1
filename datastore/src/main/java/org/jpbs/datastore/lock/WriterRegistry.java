package org.jpbs.datastore.lock;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The registry of running backup writers of a datastore, visible to a garbage collection in
 * any process: {@code <root>/.writers/<random>.writer}, one file per running writer, holding
 * its start time, process id and purpose, and locked by the writer (POSIX {@code fcntl} write
 * lock on the whole file) for as long as it runs. PBS ignores the directory (its walks skip
 * names that start with a dot), so the datastore stays PBS-compatible; the files are runtime
 * state only and never need to survive a crash.
 *
 * <p>PBS keeps the equivalent in memory (the start times of the shared holders of its process
 * lock, {@code oldest_writer}) and therefore has to refuse GC while another process writes;
 * with the registry, GC and writers of different processes coexist ({@code docs/gc.md}).
 *
 * <ul>
 * <li>{@link #register}: creates the file under a temporary name ({@code .tmp-<random>}),
 *     locks it, writes it, and only then renames it to its final name, so a GC never sees a
 *     registration that is not locked yet.</li>
 * <li>{@link #scan}: lists the live writers. A file whose lock can be taken belongs to a dead
 *     (killed) writer and is removed; so is an unlocked temporary file. A live file whose
 *     content cannot be parsed counts as started at the epoch (the safe side: nothing is old
 *     enough to be removed).</li>
 * <li>{@link #lockGc}: the mutex between garbage collections of jpbs processes
 *     ({@code .writers/gc.lock}).</li>
 * </ul>
 *
 * <p>A POSIX lock is dropped when the process closes <em>any</em> descriptor of the file, so
 * this JVM never opens the files of its own registrations: {@link #scan} takes them from an
 * in-memory table. Thread-safe.
 */
public final class WriterRegistry {
    /** The registry directory in the datastore root. */
    public static final String DIR = ".writers";
    /** Suffix of a registration file. */
    public static final String SUFFIX = ".writer";
    /** The garbage-collection mutex file in {@link #DIR}. */
    public static final String GC_LOCK = "gc.lock";
    private static final String TMP_PREFIX = ".tmp-";

    private static final SecureRandom RANDOM = new SecureRandom();
    /** Registrations of this JVM by file name (random, unique); guarded by itself. */
    private static final Map<String, Registration> OWN = new HashMap<>();
    /** Names of registrations of this JVM being created (temporary files); guarded by {@link #OWN}. */
    private static final java.util.Set<String> OWN_TMP = new java.util.HashSet<>();
    /** Datastores (real paths) with a garbage collection of this JVM; guarded by {@link #OWN}. */
    private static final java.util.Set<Path> GC_ROOTS = new java.util.HashSet<>();

    private WriterRegistry() {}

    /**
     * One live writer.
     *
     * @param file  its registration file
     * @param start when it started
     * @param pid   its process id
     * @param what  what it does, e.g. {@code backup vm/100}
     */
    public record Entry(Path file, Instant start, long pid, String what) {}

    /** A registration of this JVM; close it when the writer ends. */
    public static final class Registration implements AutoCloseable {
        private final Path file;
        private final Instant start;
        private final String what;
        private final FileChannel channel;
        private final FileLock lock;
        private boolean closed;

        private Registration(Path file, Instant start, String what, FileChannel channel, FileLock lock) {
            this.file = file;
            this.start = start;
            this.what = what;
            this.channel = channel;
            this.lock = lock;
        }

        /** When the writer started (the time written into the file). */
        public Instant start() {
            return start;
        }

        /** The registration file. */
        public Path file() {
            return file;
        }

        /** Removes the file and releases its lock. Idempotent. */
        @Override
        public void close() throws IOException {
            synchronized (OWN) {
                if (closed) {
                    return;
                }
                closed = true;
            }
            try {
                Files.deleteIfExists(file);
            } finally {
                try {
                    lock.release();
                } finally {
                    channel.close();
                    synchronized (OWN) {
                        OWN.remove(file.getFileName().toString());
                    }
                }
            }
        }

        @Override
        public String toString() {
            return "writer registration " + file.getFileName() + " (" + what + ", started " + start + ")";
        }
    }

    /** The mutex of one garbage collection; close it when GC ends. */
    public static final class GcLock implements AutoCloseable {
        private final Path key;
        private final org.jpbs.datastore.os.FlockFile chunks;
        private final FileChannel channel;
        private final FileLock lock;
        private boolean closed;

        private GcLock(Path key, org.jpbs.datastore.os.FlockFile chunks, FileChannel channel, FileLock lock) {
            this.key = key;
            this.chunks = chunks;
            this.channel = channel;
            this.lock = lock;
        }

        /** Releases the mutex. Idempotent. */
        @Override
        public synchronized void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            try {
                if (lock != null) {
                    lock.release();
                }
            } finally {
                try {
                    if (channel != null) {
                        channel.close();
                    }
                } finally {
                    try {
                        if (chunks != null) {
                            chunks.close();
                        }
                    } finally {
                        synchronized (OWN) {
                            GC_ROOTS.remove(key);
                        }
                    }
                }
            }
        }
    }

    /**
     * The registry directory, created if missing.
     *
     * @throws IOException {@code "datastore <root>: the writer registry <d> is not a directory ..."}, or
     *                     {@code "cannot register the backup writer in <d>: <cause>"}
     */
    private static Path dir(Path root) throws IOException {
        try {
            Path d = root.toRealPath().resolve(DIR);
            try {
                Files.createDirectory(d);
            } catch (FileAlreadyExistsException e) {
                if (!Files.isDirectory(d)) { // a file, or a link to nothing: say so, not "<d>/.tmp-…: Not a directory"
                    throw new NotADirectory("datastore " + root.toRealPath() + ": the writer registry " + d
                            + " is not a directory (remove it; jpbs creates the directory)");
                }
            }
            return d;
        } catch (NotADirectory e) {
            throw e; // already says what and where
        } catch (IOException e) {
            throw new IOException("cannot register the backup writer in " + root.resolve(DIR) + ": " + e.getMessage(), e);
        }
    }

    /** The registry path exists but is no directory (the message names datastore and path). */
    private static final class NotADirectory extends IOException {
        private static final long serialVersionUID = 1L;

        NotADirectory(String message) {
            super(message);
        }
    }

    /**
     * Registers a writer of the datastore at {@code root} that starts now. Register before
     * touching or inserting any chunk; close the registration after the writer has finished.
     *
     * @param what what the writer does (for logs), e.g. {@code backup vm/100}
     * @throws IOException if the registry directory or file cannot be created (message names it)
     */
    public static Registration register(Path root, String what) throws IOException {
        try {
            return registerIn(root, what);
        } catch (IOException e) { // a full disk is the server's fault: name the datastore and file
            IOException w = org.jpbs.datastore.os.StorageFullException.wrap(e, root.resolve(DIR));
            throw w instanceof org.jpbs.datastore.os.StorageFullException s ? s.inDatastore(root) : w;
        }
    }

    private static Registration registerIn(Path root, String what) throws IOException {
        Instant start = Instant.now();
        Path d = dir(root);
        if (!Files.isWritable(d)) {
            throw new IOException("datastore " + root.toRealPath() + ": cannot register the backup writer in " + d
                    + ": permission denied");
        }
        String name = randomName();
        Path tmp = d.resolve(TMP_PREFIX + name);
        Path file = d.resolve(name + SUFFIX);
        synchronized (OWN) {
            OWN_TMP.add(name); // before the file exists: a scan of this JVM must never open it
        }
        FileChannel ch;
        try {
            ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
        } catch (IOException | RuntimeException e) {
            synchronized (OWN) {
                OWN_TMP.remove(name);
            }
            throw e;
        }
        try {
            FileLock lock = ch.tryLock();
            if (lock == null) {
                throw new IOException(tmp + ": cannot lock a new writer registration");
            }
            String text = "start=" + start + "\npid=" + ProcessHandle.current().pid() + "\nwhat="
                    + what.replace('\n', ' ') + "\n";
            ByteBuffer buf = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            Registration r = new Registration(file, start, what, ch, lock);
            synchronized (OWN) {
                OWN.put(file.getFileName().toString(), r);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException | RuntimeException e) {
                synchronized (OWN) {
                    OWN.remove(file.getFileName().toString());
                }
                throw e;
            }
            synchronized (OWN) {
                OWN_TMP.remove(name);
            }
            return r;
        } catch (IOException | RuntimeException | Error e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException e2) {
                e.addSuppressed(e2);
            }
            ch.close();
            synchronized (OWN) {
                OWN_TMP.remove(name);
            }
            throw e;
        }
    }

    /**
     * The live writers of the datastore at {@code root}, oldest first; removes the files of
     * dead ones. A missing registry means no writers.
     */
    public static List<Entry> scan(Path root) throws IOException {
        Path d = root.toRealPath().resolve(DIR);
        List<Path> names = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(d)) {
            for (Path p : s) {
                names.add(p);
            }
        } catch (NoSuchFileException e) {
            return List.of();
        }
        List<Entry> live = new ArrayList<>();
        for (Path p : names) {
            String n = p.getFileName().toString();
            boolean reg = n.endsWith(SUFFIX);
            if (!reg && !n.startsWith(TMP_PREFIX)) {
                continue;
            }
            Registration own;
            boolean ownTmp;
            synchronized (OWN) {
                own = reg ? OWN.get(n) : null;
                ownTmp = !reg && OWN_TMP.contains(n.substring(TMP_PREFIX.length()));
            }
            if (own != null) {
                live.add(new Entry(p, own.start, ProcessHandle.current().pid(), own.what));
                continue;
            }
            if (ownTmp || (reg && ownTmpFor(n))) {
                continue; // a registration of this JVM being created or just removed
            }
            Entry e = probe(p, reg);
            if (e != null) {
                live.add(e);
            }
        }
        live.sort((a, b) -> a.start().compareTo(b.start()));
        return live;
    }

    private static boolean ownTmpFor(String regName) {
        synchronized (OWN) {
            return OWN_TMP.contains(regName.substring(0, regName.length() - SUFFIX.length()));
        }
    }

    /**
     * Locks a foreign file with a read lock (conflicts with its writer's write lock; needs only
     * read access, so a GC may probe the files of writers running as another user): taken =
     * dead (removed, null); held = live (parsed, or null for a temp file).
     */
    private static Entry probe(Path p, boolean reg) throws IOException {
        FileChannel ch;
        try {
            ch = FileChannel.open(p, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            return null; // finished meanwhile
        }
        try (ch) {
            FileLock lock;
            try {
                lock = ch.tryLock(0, Long.MAX_VALUE, true);
            } catch (OverlappingFileLockException e) {
                lock = null; // held in this JVM
            }
            if (lock != null) {
                try {
                    if (!reg && !olderThanGrace(p)) {
                        return null; // a writer of another process between creating and locking it
                    }
                    Files.deleteIfExists(p); // its writer is gone
                } catch (IOException e) {
                    // cannot remove it (permissions): it is ignored all the same
                } finally {
                    lock.release();
                }
                return null;
            }
            if (!reg) {
                return null; // a writer registering right now
            }
            ByteBuffer buf = ByteBuffer.allocate(4096);
            while (buf.hasRemaining() && ch.read(buf) > 0) {
                // read it all
            }
            return parse(p, new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8));
        }
    }

    /**
     * How old an unlocked temporary registration must be before a scan removes it: a writer of
     * another process creates it and locks it a moment later, and removing it in between made
     * that writer's backup fail ("… .tmp-…: no such file or directory").
     */
    static final java.time.Duration TMP_GRACE = java.time.Duration.ofMinutes(1);

    private static boolean olderThanGrace(Path p) throws IOException {
        try {
            return Files.getLastModifiedTime(p).toInstant().isBefore(Instant.now().minus(TMP_GRACE));
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    static Entry parse(Path p, String text) {
        Instant start = Instant.EPOCH;
        long pid = -1;
        String what = "unknown writer";
        boolean gotStart = false;
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq < 0) {
                continue;
            }
            String k = line.substring(0, eq);
            String v = line.substring(eq + 1);
            try {
                switch (k) {
                    case "start" -> {
                        start = Instant.parse(v);
                        gotStart = true;
                    }
                    case "pid" -> pid = Long.parseLong(v);
                    case "what" -> what = v;
                    default -> { }
                }
            } catch (RuntimeException e) {
                // unparsable value: keep the safe default
            }
        }
        if (!gotStart) {
            start = Instant.EPOCH; // cannot tell: assume the oldest possible writer
        }
        return new Entry(p, start, pid, what);
    }

    /** The start of the oldest live writer, if any. */
    public static Optional<Instant> oldest(List<Entry> entries) {
        return entries.stream().map(Entry::start).min(Instant::compareTo);
    }

    /**
     * Takes the garbage-collection mutex of the datastore at {@code root}: one GC at a time
     * over all jpbs processes (and within this JVM). Two locks: {@code flock} on the
     * {@code .chunks} directory (needs no file to be created) and {@code .writers/gc.lock}. On a
     * full disk, where {@code .writers} or {@code gc.lock} may not be creatable, the
     * {@code .chunks} lock alone is the mutex, so a GC, which is what frees space, still runs.
     *
     * @throws LockedException if another garbage collection holds it
     */
    public static GcLock lockGc(Path root) throws IOException {
        return lockGc(root, () -> dir(root).resolve(GC_LOCK));
    }

    /** What creates {@code .writers} and names {@code gc.lock} (a test makes it fail as on a full disk). */
    interface GcLockPath {
        Path create() throws IOException;
    }

    static GcLock lockGc(Path root, GcLockPath gcLockPath) throws IOException {
        Path key = root.toRealPath();
        synchronized (OWN) {
            // checked first: opening and closing gc.lock again in this JVM would drop the POSIX lock
            if (!GC_ROOTS.add(key)) {
                throw new LockedException("datastore " + key, "garbage collection in this process");
            }
        }
        org.jpbs.datastore.os.FlockFile chunks = null;
        try {
            if (org.jpbs.datastore.os.FlockFile.available()) {
                try {
                    chunks = org.jpbs.datastore.os.FlockFile.open(key.resolve(".chunks"));
                } catch (NoSuchFileException e) {
                    chunks = null; // not a datastore yet: the GC fails later with its own message
                }
                if (chunks != null && !chunks.tryLock(true)) {
                    throw new LockedException("datastore " + key, "another process (garbage collection running)");
                }
            }
            FileChannel ch;
            try {
                ch = FileChannel.open(gcLockPath.create(), StandardOpenOption.CREATE, StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
            } catch (IOException e) {
                if (chunks != null && org.jpbs.datastore.os.StorageFullException.isNoSpace(e)) {
                    return new GcLock(key, chunks, null, null); // full disk: the .chunks lock alone
                }
                throw e;
            }
            FileLock lock;
            try {
                lock = ch.tryLock();
            } catch (IOException | RuntimeException e) {
                ch.close();
                throw e;
            }
            if (lock == null) {
                ch.close();
                throw new LockedException("datastore " + key, "another process (garbage collection running)");
            }
            return new GcLock(key, chunks, ch, lock);
        } catch (IOException | RuntimeException | Error e) {
            if (chunks != null) {
                try {
                    chunks.close();
                } catch (IOException e2) {
                    e.addSuppressed(e2);
                }
            }
            synchronized (OWN) {
                GC_ROOTS.remove(key);
            }
            throw e;
        }
    }

    private static String randomName() {
        byte[] b = new byte[12];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
