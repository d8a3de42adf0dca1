package org.jpbs.core.pxar.export;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.jpbs.core.pxar.Metadata;
import org.jpbs.core.pxar.PxarAccessor;
import org.jpbs.core.pxar.PxarDecoder;
import org.jpbs.core.pxar.PxarEntry;
import org.jpbs.core.pxar.PxarFormat;
import org.jpbs.core.pxar.PxarFormatException;

/**
 * A directory of an archive as a zstd-compressed GNU tar ({@code .tar.zst}), as PBS's
 * {@code pxar-file-download} with {@code tar=1} sends it: the directory and everything below
 * it, names relative to its parent, with permission bits, owner ids and mtime; directories,
 * regular files, symlinks, hardlinks (a link when the target is inside the directory, else
 * the first one as a copy), fifos and devices; sockets are left out. Names longer than 100
 * bytes use GNU long-name records, numbers too large for octal GNU's base-256 form.
 */
public final class TarExport {
    private static final int BLOCK = 512;

    private final PxarAccessor archive;
    private final OutputStream out;
    private final byte[] inside;
    private final int prefix;
    private final Map<String, byte[]> copiedLinks = new HashMap<>();

    private TarExport(PxarAccessor archive, OutputStream out, byte[] dirPath, int prefix) {
        this.archive = archive;
        this.out = out;
        this.inside = dirPath;
        this.prefix = prefix;
    }

    /** Writes the compressed tar of {@code dir} to {@code out} (flushed, not closed). */
    public static void write(PxarAccessor archive, PxarAccessor.Node dir, OutputStream out) throws IOException {
        byte[] own = dir.entry().path();
        int cut = own.length - 1;
        while (cut >= 0 && own[cut] != '/') {
            cut--;
        }
        try (ZstdOutputStream z = new ZstdOutputStream(new FilterOutputStream(out) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                out.flush();
            }
        }, 3)) {
            TarExport t = new TarExport(archive, z, own, cut + 1);
            SubtreeWalk.walk(archive, dir, t::add);
            z.write(new byte[2 * BLOCK]);
        }
    }

    private void add(byte[] name, PxarEntry e, PxarDecoder d) throws IOException {
        Metadata m = e.metadata();
        switch (e.kind()) {
            case DIRECTORY -> header(concat(name, "/"), '5', m, 0, null, 0, 0);
            case FILE -> file(name, m, e.fileSize(), archive.contents(d, e));
            case SYMLINK -> header(name, '2', m, 0, e.linkTarget(), 0, 0);
            case FIFO -> header(name, '6', m, 0, null, 0, 0);
            case DEVICE -> header(name, m.stat().fileType() == PxarFormat.S_IFCHR ? '3' : '4', m, 0, null,
                    e.deviceMajor(), e.deviceMinor());
            case HARDLINK -> hardlink(name, e);
            default -> { } // sockets: as PBS, not in a tar
        }
    }

    private void hardlink(byte[] name, PxarEntry e) throws IOException {
        PxarAccessor.Node target = archive.lookup(e.linkTarget());
        if (target == null) {
            throw new PxarFormatException(e.fileOffset(), "hardlink target of " + e.displayPath() + " not found");
        }
        byte[] t = target.entry().path();
        boolean within = inside.length == 0 || (t.length > inside.length && t[inside.length] == '/'
                && Arrays.equals(t, 0, inside.length, inside, 0, inside.length));
        String key = new String(t, StandardCharsets.ISO_8859_1);
        byte[] linkName = within ? Arrays.copyOfRange(t, prefix, t.length) : copiedLinks.get(key);
        if (linkName == null) {
            copiedLinks.put(key, name);
            file(name, target.entry().metadata(), target.entry().fileSize(), archive.open(target));
        } else {
            header(name, '1', target.entry().metadata(), 0, linkName, 0, 0);
        }
    }

    private void file(byte[] name, Metadata m, long size, InputStream in) throws IOException {
        header(name, '0', m, size, null, 0, 0);
        long n;
        try (in) {
            n = in.transferTo(out);
        }
        if (n != size) {
            throw new PxarFormatException(-1, "contents of " + new String(name, StandardCharsets.UTF_8) + ": " + n
                    + " bytes, the entry says " + size);
        }
        pad(size);
    }

    private void header(byte[] name, char type, Metadata m, long size, byte[] link, long major, long minor)
            throws IOException {
        if (name.length > 100) {
            longName('L', name);
        }
        if (link != null && link.length > 100) {
            longName('K', link);
        }
        byte[] h = new byte[BLOCK];
        System.arraycopy(name, 0, h, 0, Math.min(100, name.length));
        number(h, 100, 8, m.stat().permissions());
        number(h, 108, 8, Integer.toUnsignedLong(m.stat().uid()));
        number(h, 116, 8, Integer.toUnsignedLong(m.stat().gid()));
        number(h, 124, 12, size);
        number(h, 136, 12, m.stat().mtimeSecs());
        finish(h, type, link, major, minor);
    }

    private void longName(char type, byte[] value) throws IOException {
        byte[] h = new byte[BLOCK];
        byte[] n = "././@LongLink".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(n, 0, h, 0, n.length);
        number(h, 100, 8, 0644);
        number(h, 108, 8, 0);
        number(h, 116, 8, 0);
        number(h, 124, 12, value.length + 1L);
        number(h, 136, 12, 0);
        finish(h, type, null, 0, 0);
        out.write(value);
        out.write(0);
        pad(value.length + 1L);
    }

    private void finish(byte[] h, char type, byte[] link, long major, long minor) throws IOException {
        h[156] = (byte) type;
        if (link != null) {
            System.arraycopy(link, 0, h, 157, Math.min(100, link.length));
        }
        byte[] magic = "ustar  ".getBytes(StandardCharsets.US_ASCII); // GNU: "ustar " + " \0"
        System.arraycopy(magic, 0, h, 257, magic.length);
        if (type == '3' || type == '4') {
            number(h, 329, 8, major);
            number(h, 337, 8, minor);
        }
        Arrays.fill(h, 148, 156, (byte) ' ');
        long sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        byte[] c = String.format("%06o", sum).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(c, 0, h, 148, 6);
        h[154] = 0;
        h[155] = ' ';
        out.write(h);
    }

    /** An octal field with a NUL, or GNU base-256 (high bit set) if it does not fit or is negative. */
    static void number(byte[] h, int off, int len, long v) {
        if (v >= 0 && v < 1L << (3 * (len - 1))) {
            String s = Long.toOctalString(v);
            byte[] b = ("0".repeat(len - 1 - s.length()) + s).getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(b, 0, h, off, len - 1);
            h[off + len - 1] = 0;
            return;
        }
        for (int i = len - 1; i > 0; i--) {
            h[off + i] = (byte) v;
            v >>= 8;
        }
        h[off] = (byte) (v < 0 ? 0xff : 0x80);
    }

    private void pad(long size) throws IOException {
        int rest = (int) (size % BLOCK);
        if (rest != 0) {
            out.write(new byte[BLOCK - rest]);
        }
    }

    private static byte[] concat(byte[] a, String b) {
        byte[] s = b.getBytes(StandardCharsets.US_ASCII);
        byte[] r = Arrays.copyOf(a, a.length + s.length);
        System.arraycopy(s, 0, r, a.length, s.length);
        return r;
    }
}
