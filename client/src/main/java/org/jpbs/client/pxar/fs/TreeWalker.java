package org.jpbs.client.pxar.fs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.jpbs.core.pxar.Metadata;
import org.jpbs.core.pxar.PxarFlags;
import org.jpbs.core.pxar.pattern.MatchEntry;

/**
 * Walks the tree being archived ahead of the encoder, on a thread of its own
 * ({@code docs/pxar.md#reading-a-directory-tree}): lists each directory ({@code getdents64}, whose
 * entry types spare a stat per entry), applies the exclude patterns, sorts by name and hands the
 * entries, in archive order, to a bounded queue; every entry but a directory is read (stat,
 * metadata, contents within the budget) by the {@link ReadAheadPool} while the encoder is still
 * busy with earlier ones. Directories are opened and read here, since their entries are listed
 * through them. At most {@code window} items wait in the queue, which also bounds the open
 * descriptors.
 */
final class TreeWalker {
    /** What the encoder gets, in archive order. */
    sealed interface Item {}

    /** A directory begins (its metadata read). */
    record DirStart(byte[] name, Metadata meta) implements Item {}

    /** The directory begun last ends. */
    record DirEnd() implements Item {}

    /** Any other entry, being read by the pool; holds its directory until the encoder is done. */
    record Child(DirHandle dir, CompletableFuture<EntryRead> read) implements Item {}

    /** A warning to report at this point of the archive. */
    record Note(String text) implements Item {}

    /** The root's {@code .pxarexclude-cli} contents. */
    record CliExcludes(byte[] content) implements Item {}

    /** The walk failed. */
    record Failed(Exception error) implements Item {}

    /** The walk is complete. */
    record End() implements Item {}

    /** The consumer stopped taking items. */
    private static final class Stopped extends Exception {
        Stopped() {
            super(null, null, false, false);
        }
    }

    private static final byte[] LOST_FOUND = "lost+found".getBytes(StandardCharsets.US_ASCII);

    private final TreeArchiver.Options options;
    private final Set<Long> devices;
    private final ReadAheadPool pool;
    private final int ahead;
    private final BlockingQueue<Item> queue;
    private final List<MatchEntry> patterns = new ArrayList<>();
    private Sys sys;
    private long entries;
    private long currentDev;
    private Thread thread;

    /**
     * @param devices the devices whose contents are archived (null: all)
     * @param ahead   most content bytes of one file read ahead (0: contents are left to the encoder;
     *                {@link EntryRead#METADATA_ONLY}: files are closed once their metadata is read)
     * @param window  most items waiting for the encoder
     */
    TreeWalker(TreeArchiver.Options options, Set<Long> devices, ReadAheadPool pool, int ahead, int window) {
        this.options = options;
        this.devices = devices;
        this.pool = pool;
        this.ahead = ahead;
        this.queue = new ArrayBlockingQueue<>(window);
        patterns.addAll(options.patterns());
        if (options.skipLostAndFound()) {
            patterns.add(MatchEntry.parse(LOST_FOUND, false, false));
        }
    }

    /** Starts walking below {@code root} (on device {@code dev}); takes over the hold of {@code root}. */
    void start(DirHandle root, long dev) {
        currentDev = dev;
        thread = Thread.ofPlatform().daemon().name("jpbs-pxar-walk").start(() -> run(root));
    }

    /** The next item (blocks until the walker has one). */
    Item take() throws java.io.InterruptedIOException {
        try {
            return queue.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while archiving");
        }
    }

    /**
     * Stops the walker and lets go of everything it handed out and the encoder did not take
     * (descriptors, read-ahead bytes), with the caller's {@link Sys}.
     */
    void stop(Sys own) {
        if (thread != null) {
            thread.interrupt();
            boolean interrupted = false;
            while (true) {
                try {
                    thread.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        Item it;
        while ((it = queue.poll()) != null) {
            discard(it, own);
        }
    }

    private void run(DirHandle root) {
        try (Sys s = new Sys()) {
            sys = s;
            try {
                try {
                    archiveDir(root);
                } finally {
                    root.release(sys);
                }
                put(new End());
            } catch (Stopped e) {
                // the encoder stopped: nothing more is wanted
            } catch (Throwable e) { // whatever ends the walk ends the archive, never a hung encoder
                try {
                    put(new Failed(e instanceof Exception x ? x : new IllegalStateException(e.toString(), e)));
                } catch (Stopped ignored) {
                    // the encoder stopped anyway
                }
            }
        }
    }

    private void archiveDir(DirHandle dir) throws IOException, Stopped {
        long entriesBefore = entries;
        int inherited = patterns.size();
        List<String> notes = new ArrayList<>();
        ExcludeFile.read(sys, dir.fd, dir.path, patterns, notes::add);
        for (String n : notes) {
            put(new Note(n));
        }
        boolean root = dir.path.length == 0;
        List<Sys.DirEntry> listed;
        try {
            listed = sys.list(dir.fd);
        } catch (SysException e) {
            if (e.errno() != Libc.ENOENT) {
                throw new IOException("cannot read directory " + EntryOutput.show(dir.path) + ": " + Libc.strerror(e.errno()), e);
            }
            // removed while it was listed: archived as empty
            put(new Note("warning: file vanished while reading: " + EntryOutput.show(dir.path)));
            listed = List.of();
        }
        Listed[] kept = new Listed[listed.size()];
        int n = 0;
        for (Sys.DirEntry e : listed) {
            byte[] name = e.name();
            if (root && Arrays.equals(name, ExcludeFile.CLI_NAME)) {
                continue;
            }
            int type = e.type();
            Sys.FileStat st = null;
            if (type == 0) { // the file system does not say: stat it
                st = new Sys.FileStat();
                if (!stat(dir, name, st)) {
                    continue;
                }
                type = st.type();
            }
            if (!patterns.isEmpty() && Boolean.FALSE.equals(MatchEntry.decide(patterns, slash(join(dir.path, name)), type))) {
                continue;
            }
            if (++entries > options.entriesMax()) {
                throw new IOException("exceeded allowed number of file entries (> " + options.entriesMax() + ")");
            }
            kept[n++] = new Listed(name, type, st);
        }
        Arrays.sort(kept, 0, n, (a, b) -> Arrays.compareUnsigned(a.name, b.name));
        for (int i = 0; i < n; i++) {
            Listed l = kept[i];
            byte[] path = join(dir.path, l.name);
            if (l.type == 0040000) {
                directory(dir, l.name, path, l.stat);
            } else {
                child(dir, l.name, path);
            }
        }
        if (root && inherited > 0) { // the command line's patterns (with lost+found), as pxar stores them
            java.io.ByteArrayOutputStream content = new java.io.ByteArrayOutputStream();
            for (MatchEntry p : patterns.subList(0, inherited)) {
                content.writeBytes(p.cliLine());
            }
            put(new CliExcludes(content.toByteArray()));
        }
        entries = entriesBefore;
        patterns.subList(inherited, patterns.size()).clear();
    }

    private record Listed(byte[] name, int type, Sys.FileStat stat) {}

    private void child(DirHandle dir, byte[] name, byte[] path) throws Stopped {
        dir.retain();
        put(new Child(dir, pool.read(new EntryRead(name, path), dir, ahead)));
    }

    /** Stats {@code name}; false if it is gone. */
    private boolean stat(DirHandle dir, byte[] name, Sys.FileStat st) throws IOException {
        try {
            sys.statx(dir.fd, name, Libc.AT_SYMLINK_NOFOLLOW, st);
            return true;
        } catch (SysException e) {
            if (e.errno() == Libc.ENOENT) {
                return false;
            }
            throw new IOException("stat failed on " + EntryOutput.show(join(dir.path, name)) + ": "
                    + Libc.strerror(e.errno()), e);
        }
    }

    private void directory(DirHandle parent, byte[] name, byte[] path, Sys.FileStat known) throws IOException, Stopped {
        Sys.FileStat st = known;
        if (st == null) {
            st = new Sys.FileStat();
            if (!stat(parent, name, st)) {
                return;
            }
            if (st.type() != 0040000) { // replaced since it was listed: read it as what it is now
                child(parent, name, path);
                return;
            }
        }
        int fd;
        try {
            fd = EntryRead.openDirectory(sys, parent.fd, name);
        } catch (SysException e) {
            if (e.errno() == Libc.ENOENT || e.errno() == Libc.ENOTDIR || e.errno() == Libc.ELOOP) { // gone, or no longer a directory
                put(new Note("warning: file vanished while reading: " + EntryOutput.show(path)));
                return;
            }
            if (e.errno() == Libc.EACCES) {
                put(new Note("failed to open file: " + EntryOutput.show(path) + ": access denied"));
                return;
            }
            throw new IOException("cannot open " + EntryOutput.show(path) + ": " + Libc.strerror(e.errno()), e);
        }
        DirHandle h;
        boolean skip = false;
        try {
            Metadata meta = TreeArchiver.metadata(sys, fd, st, parent.magic, parent.features, EntryOutput.show(path));
            long magic = parent.magic;
            long features = parent.features;
            if (st.dev() != currentDev) {
                magic = sys.fsType(fd);
                features = PxarFlags.featuresOf(magic);
                skip = PxarFlags.isVirtual(magic) || devices != null && !devices.contains(st.dev());
            }
            h = new DirHandle(fd, path, magic, features);
            put(new DirStart(name, meta));
        } catch (IOException | RuntimeException | Stopped e) {
            sys.close(fd);
            throw e;
        }
        long oldDev = currentDev;
        currentDev = st.dev();
        try {
            if (skip) {
                put(new Note("skipping mount point: " + EntryOutput.show(path)));
            } else {
                archiveDir(h);
            }
        } finally {
            currentDev = oldDev;
            h.release(sys);
        }
        put(new DirEnd());
    }

    private void put(Item it) throws Stopped {
        try {
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException();
            }
            queue.put(it);
        } catch (InterruptedException e) {
            discard(it, sys);
            throw new Stopped();
        }
    }

    /** Lets go of what an item holds. */
    private void discard(Item it, Sys own) {
        if (it instanceof Child c) {
            try {
                c.read().join().discard(own, pool.budget);
            } catch (CompletionException | java.util.concurrent.CancellationException e) {
                // nothing was kept open
            } finally {
                c.dir().release(own);
            }
        }
    }

    private static byte[] slash(byte[] path) {
        byte[] p = new byte[path.length + 1];
        p[0] = '/';
        System.arraycopy(path, 0, p, 1, path.length);
        return p;
    }

    static byte[] join(byte[] dir, byte[] name) {
        if (dir.length == 0) {
            return name;
        }
        byte[] p = Arrays.copyOf(dir, dir.length + 1 + name.length);
        p[dir.length] = '/';
        System.arraycopy(name, 0, p, dir.length + 1, name.length);
        return p;
    }
}
