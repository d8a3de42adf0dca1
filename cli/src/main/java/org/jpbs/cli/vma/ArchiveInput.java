package org.jpbs.cli.vma;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.jpbs.vma.VmaReader;
import org.jpbs.vma.stream.Compression;

/**
 * Opens the ARCHIVE argument of the vma commands: {@code -} is standard input, anything else a
 * file (or FIFO). The framing (plain VMA, zstd, gzip, lzop) is recognised by the first bytes,
 * so the file name does not matter and pipes work.
 */
final class ArchiveInput {
    private ArchiveInput() {}

    /**
     * Opens a reader over the uncompressed archive; the caller closes it.
     *
     * @throws IOException naming the archive if it does not exist, is a directory or is not a
     *         (compressed) VMA archive
     */
    static VmaReader open(String spec) throws IOException {
        if (spec.isEmpty()) {
            throw new IllegalArgumentException("ARCHIVE must not be empty (use - for standard input)");
        }
        String name = spec.equals("-") ? "standard input" : spec;
        InputStream raw;
        if (spec.equals("-")) {
            raw = System.in;
        } else {
            Path p = Path.of(spec);
            if (Files.isDirectory(p)) {
                throw new IllegalArgumentException("ARCHIVE " + spec + " is a directory");
            }
            if (!Files.exists(p)) {
                throw new NoSuchFileException(spec);
            }
            raw = Files.newInputStream(p);
        }
        try {
            return new VmaReader(Compression.openDecoding(raw, name), name);
        } catch (IOException | RuntimeException e) {
            raw.close();
            throw e;
        }
    }
}
