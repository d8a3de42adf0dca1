package org.jpbs.cli.vma;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import org.jpbs.vma.stream.Compression;

/**
 * Where {@code vma create} and {@code vma export} write: {@code -} is standard output; a path
 * must not exist yet and is written as {@code <name>.tmp-XXXXXX} in the same directory, renamed
 * to its name by {@link #commit()} (vzdump likewise writes {@code .dat} first), so a failed or
 * interrupted run leaves no archive. The compression follows {@code --compress} or else the
 * file name ({@code .zst}, {@code .gz}, {@code .lzo}); standard output is uncompressed unless
 * {@code --compress} says otherwise.
 */
final class ArchiveOutput implements AutoCloseable {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path target;
    private final Path tmp;
    private final OutputStream stream;
    private final Compression compression;
    private final Thread cleanup;
    private boolean committed;

    private ArchiveOutput(Path target, Path tmp, OutputStream stream, Compression compression) {
        this.target = target;
        this.tmp = tmp;
        this.stream = stream;
        this.compression = compression;
        this.cleanup = tmp == null ? null : Thread.ofPlatform().unstarted(() -> {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException e) {
                // exiting anyway
            }
        });
        if (cleanup != null) {
            Runtime.getRuntime().addShutdownHook(cleanup);
        }
    }

    /**
     * Opens OUT.
     *
     * @param spec     the OUT argument ({@code -} or a path)
     * @param override the {@code --compress} value, or null to follow the name
     * @param stdout   the process's standard output
     * @throws FileAlreadyExistsException if the file exists
     * @throws IllegalArgumentException if its directory does not exist
     */
    static ArchiveOutput open(String spec, Compression override, OutputStream stdout) throws IOException {
        if (spec.isEmpty()) {
            throw new IllegalArgumentException("OUT must not be empty (use - for standard output)");
        }
        if (spec.equals("-")) {
            Compression c = override != null ? override : Compression.NONE;
            OutputStream s = new FilterOutputStream(stdout) {
                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                }

                @Override
                public void close() throws IOException {
                    flush(); // never close the process's stdout
                }
            };
            return new ArchiveOutput(null, null, c.encoding(new BufferedOutputStream(s, 1 << 20), threads()), c);
        }
        Path p = Path.of(spec);
        if (Files.exists(p)) {
            throw new FileAlreadyExistsException(spec);
        }
        Path parent = p.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new IllegalArgumentException("OUT " + spec + ": directory " + parent + " does not exist");
        }
        Compression c = override != null ? override : Compression.fromFileName(p.getFileName().toString());
        Path tmp = parent.resolve(p.getFileName() + ".tmp-" + suffix());
        OutputStream file = Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            return new ArchiveOutput(p, tmp, c.encoding(new BufferedOutputStream(file, 1 << 20), threads()), c);
        } catch (IOException | RuntimeException e) {
            file.close();
            Files.deleteIfExists(tmp);
            throw e;
        }
    }

    private static int threads() {
        return Runtime.getRuntime().availableProcessors();
    }

    private static String suffix() {
        String chars = "abcdefghijklmnopqrstuvwxyz0123456789";
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            b.append(chars.charAt(RANDOM.nextInt(chars.length())));
        }
        return b.toString();
    }

    /** The stream to write the uncompressed archive to. */
    OutputStream stream() {
        return stream;
    }

    /** The compression applied. */
    Compression compression() {
        return compression;
    }

    /** How to name the output in messages. */
    String description() {
        return target == null ? "standard output" : target.toString();
    }

    /** Finishes the compression, flushes to disk and renames the file to OUT. */
    void commit() throws IOException {
        stream.close();
        if (tmp != null) {
            try (var ch = java.nio.channels.FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            if (Files.exists(target)) {
                throw new FileAlreadyExistsException(target.toString());
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        }
        committed = true;
    }

    /** Without a commit: closes and deletes the temporary file. */
    @Override
    public void close() throws IOException {
        try {
            if (!committed) {
                try {
                    stream.close();
                } catch (IOException e) {
                    // the partial output is removed anyway
                }
            }
        } finally {
            if (!committed && tmp != null) {
                Files.deleteIfExists(tmp);
            }
            if (cleanup != null) {
                try {
                    Runtime.getRuntime().removeShutdownHook(cleanup);
                } catch (IllegalStateException e) {
                    // shutting down; the hook runs anyway
                }
            }
        }
    }
}
