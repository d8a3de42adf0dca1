package org.jpbs.client.pxar.fs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.jpbs.core.pxar.Metadata;
import org.jpbs.core.pxar.Stat;

/**
 * One entry of a directory read ahead of the encoder ({@code docs/pxar.md#reading-a-directory-tree}),
 * on any thread with its own {@link Sys}: {@code statx}, then by type: a regular file is opened
 * ({@code O_NOATIME} where permitted), its metadata read from the descriptor and, within the
 * read-ahead budget, its contents (one {@code read} for a small file, which also tells whether it
 * grew); a symlink's target is read; devices, fifos and sockets need nothing more. What goes wrong
 * is kept for the encoder, which reports it in archive order: a vanished file is skipped with a
 * warning, an unreadable one fails the archive.
 */
final class EntryRead {
    final byte[] name;
    final byte[] path;
    final Sys.FileStat stat = new Sys.FileStat();
    Metadata meta;
    /** The open regular file, or -1 (not opened, or closed once its contents were all read). */
    int fd = -1;
    /** Contents read ahead: {@code data[0, length)}; {@code complete} when that is the whole file. */
    byte[] data;
    int length;
    boolean complete;
    /** Bytes of the read-ahead budget {@link #data} holds. */
    int reserved;
    byte[] linkTarget;
    /** The entry is left out (vanished, not accessible, changed type); the warnings say why. */
    boolean skip;
    List<String> warnings = List.of();

    /**
     * {@code ahead} for metadata mode: the file is closed as soon as its metadata is read (an
     * unchanged file needs no more; one read after all is opened again, {@link Reopen}).
     */
    static final int METADATA_ONLY = -1;

    EntryRead(byte[] name, byte[] path) {
        this.name = name;
        this.path = path;
    }

    /** The budget from which contents are read ahead, never waited for. */
    interface Budget {
        /** Takes {@code bytes} if available now. */
        boolean tryTake(int bytes);

        void give(int bytes);
    }

    /**
     * Reads the entry {@code name} of {@code dir}.
     *
     * @param ahead  most content bytes to read ahead (0: none, the encoder reads the file;
     *               {@link #METADATA_ONLY}: none, and the file is closed after its metadata)
     * @param budget where the read-ahead bytes are taken from
     */
    EntryRead read(Sys sys, DirHandle dir, int ahead, Budget budget) throws IOException {
        try {
            sys.statx(dir.fd, name, Libc.AT_SYMLINK_NOFOLLOW, stat);
        } catch (SysException e) {
            if (e.errno() == Libc.ENOENT) {
                skip = true; // gone between listing and stat: silently, as pxar
                return this;
            }
            throw new IOException("stat failed on " + EntryOutput.show(path) + ": " + Libc.strerror(e.errno()), e);
        }
        switch (stat.type()) {
            case 0100000 -> readFile(sys, dir, ahead, budget);
            case 0120000 -> {
                try {
                    linkTarget = sys.readlinkat(dir.fd, name);
                } catch (SysException e) {
                    // EINVAL: no longer a symlink (replaced since the stat): as if it vanished
                    vanishedOr(e.errno() == Libc.EINVAL ? new SysException("readlink", name, Libc.ENOENT) : e,
                            "cannot read symlink ");
                }
                meta = Metadata.of(stat(0));
            }
            case 0020000, 0060000, 0010000, 0140000 -> meta = Metadata.of(stat(0));
            case 0040000 -> {
                warn("warning: " + EntryOutput.show(path) + " became a directory while reading, skipped");
                skip = true;
            }
            default -> throw new IOException(String.format("unknown file type 0%o: %s", stat.type(),
                    EntryOutput.show(path)));
        }
        return this;
    }

    private void readFile(Sys sys, DirHandle dir, int ahead, Budget budget) throws IOException {
        try {
            fd = open(sys, dir.fd, name);
        } catch (SysException e) {
            vanishedOr(e, "cannot open ");
            return;
        }
        if (!stillRegular(sys)) { // replaced between stat and open by a FIFO, device, ...: as if it vanished
            close(sys);
            warn("warning: file vanished while reading: " + EntryOutput.show(path));
            skip = true;
            return;
        }
        try {
            sys.blocking(fd); // a regular file: read it blocking (a FUSE or network file system may honour the flag)
        } catch (SysException e) {
            close(sys);
            throw new IOException("cannot read " + EntryOutput.show(path) + ": " + Libc.strerror(e.errno()), e);
        }
        try {
            meta = new MetadataReader(sys, fd, dir.features, dir.magic).read(stat(0));
        } catch (SysException e) {
            close(sys);
            throw new IOException(EntryOutput.show(path) + ": " + e.getMessage(), e);
        }
        if (ahead == METADATA_ONLY) {
            close(sys);
            complete = stat.size == 0;
            return;
        }
        int want = (int) Math.min(stat.size, ahead);
        if (stat.size == 0) {
            complete = true;
        } else if (want > 0 && budget.tryTake(want)) {
            reserved = want;
            try {
                readAhead(sys, want);
            } catch (SysException e) {
                close(sys);
                throw new IOException("read failed on " + EntryOutput.show(path) + ": " + e.getMessage(), e);
            }
        }
        if (complete) {
            close(sys);
        }
    }

    /**
     * Reads the first {@code want} bytes. When that is the whole file (its stat size), a file that
     * ended early is padded with zeros and one with more bytes is cut, each with a warning; when it
     * is only the start, the encoder reads the rest (and notices a change).
     */
    private void readAhead(Sys sys, int want) throws SysException {
        data = new byte[want];
        boolean whole = want == stat.size;
        while (length < want) {
            // the whole file: ask for a byte more to see it grew; only its start: exactly that (the
            // encoder reads on from the descriptor's offset)
            int got = whole ? sys.readProbing(fd, data, length, want - length)
                    : sys.read(fd, data, length, want - length);
            if (got == 0) {
                if (whole) {
                    warn("warning: file size shrunk while reading: " + EntryOutput.show(path)
                            + ", file will be padded with zeros!");
                }
                length = want; // data holds zeros after what was read; the encoder pads the rest
                break;
            }
            if (got > want - length) {
                if (whole) {
                    warn("warning: file size increased while reading: " + EntryOutput.show(path)
                            + ", file will be truncated!");
                }
                length = want;
                break;
            }
            length += got;
        }
        complete = whole;
    }

    /**
     * True if {@link #fd} is a regular file. Another regular file in its place is read as before
     * (cut or padded to the size stat'ed, as pxar does); anything else is not read.
     */
    private boolean stillRegular(Sys sys) throws IOException {
        Sys.FileStat now = new Sys.FileStat();
        try {
            sys.statx(fd, new byte[0], Libc.AT_EMPTY_PATH, now);
        } catch (SysException e) {
            close(sys);
            throw new IOException("stat failed on " + EntryOutput.show(path) + ": " + Libc.strerror(e.errno()), e);
        }
        return now.type() == 0100000;
    }

    private void vanishedOr(SysException e, String what) throws IOException {
        if (e.errno() == Libc.ENOENT) {
            warn("warning: file vanished while reading: " + EntryOutput.show(path));
            skip = true;
        } else if (e.errno() == Libc.EACCES) {
            warn("failed to open file: " + EntryOutput.show(path) + ": access denied");
            skip = true;
        } else {
            throw new IOException(what + EntryOutput.show(path) + ": " + Libc.strerror(e.errno()), e);
        }
    }

    private void warn(String w) {
        if (warnings.isEmpty()) {
            warnings = new ArrayList<>(1);
        }
        warnings.add(w);
    }

    /**
     * Opens a regular file or directory for reading its metadata and contents ({@code O_NOATIME}
     * if permitted). {@code O_NONBLOCK}: the name may have become a FIFO since it was listed or
     * stat'ed, and opening a FIFO without it waits for a writer, for ever if none comes. A regular
     * file's descriptor is switched back to blocking ({@link Sys#blocking}) before it is read.
     */
    static int open(Sys sys, int dirfd, byte[] name) throws SysException {
        return open(sys, dirfd, name, 0);
    }

    /** {@link #open(Sys, int, byte[])} with {@code O_DIRECTORY}: ENOTDIR (or ELOOP) if the name is no longer a directory. */
    static int openDirectory(Sys sys, int dirfd, byte[] name) throws SysException {
        return open(sys, dirfd, name, Libc.O_DIRECTORY);
    }

    private static int open(Sys sys, int dirfd, byte[] name, int extra) throws SysException {
        int flags = Libc.O_RDONLY | Libc.O_NOFOLLOW | Libc.O_CLOEXEC | Libc.O_NOCTTY | Libc.O_NOATIME | Libc.O_NONBLOCK | extra;
        try {
            return sys.openat(dirfd, name, flags, 0);
        } catch (SysException e) {
            if (e.errno() == Libc.EPERM) {
                return sys.openat(dirfd, name, flags & ~Libc.O_NOATIME, 0);
            }
            throw e;
        }
    }

    Stat stat(long flags) {
        return new Stat(Integer.toUnsignedLong(stat.mode), flags, stat.uid, stat.gid, stat.mtimeSecs, stat.mtimeNanos);
    }

    /** Closes the file if it is open. */
    void close(Sys sys) {
        if (fd >= 0) {
            sys.close(fd);
            fd = -1;
        }
    }

    /** Lets go of everything: the descriptor and the read-ahead bytes. */
    void discard(Sys sys, Budget budget) {
        close(sys);
        if (reserved > 0) {
            budget.give(reserved);
            reserved = 0;
        }
        data = null;
    }
}
