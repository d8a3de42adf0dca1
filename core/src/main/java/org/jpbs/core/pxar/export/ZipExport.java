package org.jpbs.core.pxar.export;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.jpbs.core.pxar.Metadata;
import org.jpbs.core.pxar.PxarAccessor;
import org.jpbs.core.pxar.PxarFormatException;

/**
 * A directory of an archive as a zip, as PBS's {@code pxar-file-download} sends it: the
 * directory itself and every directory and regular file below it (deflated), names relative
 * to its parent ({@code etc/}, {@code etc/hosts}) in archive order, with their modification
 * times; a hardlink becomes a copy of its file. Symlinks, devices, fifos and sockets are left
 * out, as PBS does.
 */
public final class ZipExport {
    private ZipExport() {}

    /** Writes the zip of {@code dir} to {@code out} (finished, not closed). */
    public static void write(PxarAccessor archive, PxarAccessor.Node dir, OutputStream out) throws IOException {
        ZipOutputStream zip = new ZipOutputStream(new FilterOutputStream(out) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                out.flush();
            }
        }, StandardCharsets.UTF_8);
        SubtreeWalk.walk(archive, dir, (name, e, d) -> {
            String n = new String(name, StandardCharsets.UTF_8);
            switch (e.kind()) {
                case DIRECTORY -> {
                    zip.putNextEntry(entry(n + "/", e.metadata()));
                    zip.closeEntry();
                }
                case FILE -> copy(zip, entry(n, e.metadata()), archive.contents(d, e));
                case HARDLINK -> {
                    PxarAccessor.Node target = archive.lookup(e.linkTarget());
                    if (target == null) {
                        throw new PxarFormatException(e.fileOffset(), "hardlink target of " + e.displayPath() + " not found");
                    }
                    copy(zip, entry(n, target.entry().metadata()), archive.open(target));
                }
                default -> { } // as PBS: no symlinks, devices, fifos or sockets in a zip
            }
        });
        zip.finish();
        zip.flush();
    }

    private static ZipEntry entry(String name, Metadata m) {
        ZipEntry z = new ZipEntry(name);
        z.setLastModifiedTime(FileTime.from(Instant.ofEpochSecond(m.stat().mtimeSecs(), m.stat().mtimeNanos())));
        return z;
    }

    private static void copy(ZipOutputStream zip, ZipEntry z, InputStream in) throws IOException {
        zip.putNextEntry(z);
        try (in) {
            in.transferTo(zip);
        }
        zip.closeEntry();
    }
}
