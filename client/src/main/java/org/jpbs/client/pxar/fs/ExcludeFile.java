package org.jpbs.client.pxar.fs;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.jpbs.core.pxar.pattern.MatchEntry;

/**
 * Reads a directory's {@code .pxarexclude} ({@code docs/pxar.md#exclude-patterns}): one pattern
 * per line, surrounding whitespace ignored, empty lines and {@code #} comments skipped;
 * {@code !} makes an include; a leading {@code /} anchors the pattern at this directory.
 * The patterns apply to this directory and everything below it.
 */
final class ExcludeFile {
    static final byte[] NAME = ".pxarexclude".getBytes(StandardCharsets.US_ASCII);
    static final byte[] CLI_NAME = ".pxarexclude-cli".getBytes(StandardCharsets.US_ASCII);

    private ExcludeFile() {}

    static void read(Sys sys, int dirfd, byte[] dirPath, List<MatchEntry> out, Consumer<String> warnings) {
        byte[] content;
        try {
            int fd = sys.tryOpenat(dirfd, NAME, Libc.O_RDONLY | Libc.O_NOFOLLOW | Libc.O_CLOEXEC, 0);
            if (fd == -Libc.ENOENT) {
                return; // the usual case: no exclude file here
            }
            if (fd < 0) {
                throw new SysException("open", NAME, -fd);
            }
            try {
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                byte[] buf = new byte[65536];
                int n;
                while ((n = sys.read(fd, buf, 0, buf.length)) > 0) {
                    b.write(buf, 0, n);
                }
                content = b.toByteArray();
            } finally {
                sys.close(fd);
            }
        } catch (SysException e) {
            if (e.errno() != Libc.ENOENT) {
                warnings.accept("ignoring .pxarexclude in \"/" + new String(dirPath, StandardCharsets.UTF_8) + "\": "
                        + e.getMessage());
            }
            return;
        }
        int start = 0;
        for (int i = 0; i <= content.length; i++) {
            if (i == content.length || content[i] == '\n') {
                line(Arrays.copyOfRange(content, start, i), dirPath, out, warnings);
                start = i + 1;
            }
        }
    }

    private static void line(byte[] raw, byte[] dirPath, List<MatchEntry> out, Consumer<String> warnings) {
        int a = 0;
        int b = raw.length;
        while (a < b && isSpace(raw[a])) {
            a++;
        }
        while (b > a && isSpace(raw[b - 1])) {
            b--;
        }
        if (a == b || raw[a] == '#') {
            return;
        }
        byte[] line = Arrays.copyOfRange(raw, a, b);
        try {
            if (line[0] == '/') {
                out.add(MatchEntry.parse(anchor(dirPath, line, 0), false, true));
            } else if (line.length > 1 && line[0] == '!' && line[1] == '/') {
                out.add(MatchEntry.parse(anchor(dirPath, line, 1), true, true));
            } else if (line[0] == '!') {
                out.add(MatchEntry.parse(Arrays.copyOfRange(line, 1, line.length), true, false));
            } else {
                out.add(MatchEntry.parse(line, false, false));
            }
        } catch (IllegalArgumentException e) {
            warnings.accept("bad pattern in \"/" + new String(dirPath, StandardCharsets.UTF_8) + "\": " + e.getMessage());
        }
    }

    /** "/" + dirPath + line[from..] (line[from] is the pattern's leading '/'). */
    private static byte[] anchor(byte[] dirPath, byte[] line, int from) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        if (dirPath.length > 0) {
            o.write('/');
            o.writeBytes(dirPath);
        }
        o.write(line, from, line.length - from);
        return o.toByteArray();
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0c;
    }
}
