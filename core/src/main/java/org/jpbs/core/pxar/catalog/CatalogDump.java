package org.jpbs.core.pxar.catalog;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jpbs.core.pxar.pattern.MatchEntry;

/**
 * The listings the PBS client prints from a catalog ({@code docs/pxar.md#catalog}):
 * {@code catalog dump} lines ({@code d "./root.pxar.didx"}, {@code f "./root.pxar.didx/a" SIZE
 * MTIME}) and {@code catalog find} matches, in archive order, paths quoted as Rust's Debug
 * prints them.
 */
public final class CatalogDump {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'");

    private CatalogDump() {}

    /**
     * Every entry, depth first: {@code TYPE "PATH"}, files with size and mtime (local time
     * of {@code zone}, printed with a 'Z' as PBS does).
     */
    public static void dump(CatalogReader r, ZoneId zone, Consumer<String> out) throws IOException {
        dump(r, r.root(), "./".getBytes(StandardCharsets.US_ASCII), zone, out);
    }

    private static void dump(CatalogReader r, CatalogEntry dir, byte[] prefix, ZoneId zone, Consumer<String> out)
            throws IOException {
        for (CatalogEntry e : r.list(dir)) {
            byte[] path = join(prefix, e.name());
            String line = e.type() + " " + quote(path);
            if (e.type() == 'f') {
                line += " " + e.size() + " " + TIME.format(Instant.ofEpochSecond(e.mtime()).atZone(zone));
            }
            out.accept(line);
            if (e.isDirectory()) {
                dump(r, e, path, zone, out);
            }
        }
    }

    /**
     * The paths ({@code /root.pxar.didx/...}) the patterns include, as {@code catalog find}
     * reports them; an excluded directory is not descended into.
     */
    public static List<byte[]> find(CatalogReader r, List<MatchEntry> patterns) throws IOException {
        List<byte[]> found = new ArrayList<>();
        find(r, r.root(), new byte[0], patterns, found);
        return found;
    }

    /**
     * As {@link #find(CatalogReader, List)} below the directory {@code dir}, paths starting with
     * {@code prefix} (empty: {@code /NAME}); the catalog shell searches an archive with it.
     */
    public static List<byte[]> find(CatalogReader r, CatalogEntry dir, byte[] prefix, List<MatchEntry> patterns)
            throws IOException {
        List<byte[]> found = new ArrayList<>();
        find(r, dir, prefix, patterns, found);
        return found;
    }

    private static void find(CatalogReader r, CatalogEntry dir, byte[] prefix, List<MatchEntry> patterns,
            List<byte[]> found) throws IOException {
        for (CatalogEntry e : r.list(dir)) {
            byte[] path = join(prefix.length == 0 ? new byte[] {'/'} : prefix, e.name());
            Boolean d = MatchEntry.decide(patterns, path, fileType(e.type()));
            if (Boolean.FALSE.equals(d)) {
                continue;
            }
            if (Boolean.TRUE.equals(d)) {
                found.add(path);
            }
            if (e.isDirectory()) {
                find(r, e, path, patterns, found);
            }
        }
    }

    /** The S_IF* type of a catalog type letter (-1 for a hardlink, whose type the catalog does not know). */
    public static int fileType(char type) {
        return switch (type) {
            case 'd' -> 0040000;
            case 'f' -> 0100000;
            case 'l' -> 0120000;
            case 'b' -> 0060000;
            case 'c' -> 0020000;
            case 'p' -> 0010000;
            case 's' -> 0140000;
            default -> -1;
        };
    }

    private static byte[] join(byte[] prefix, byte[] name) {
        boolean slash = prefix.length > 0 && prefix[prefix.length - 1] == '/';
        byte[] p = new byte[prefix.length + (slash ? 0 : 1) + name.length];
        System.arraycopy(prefix, 0, p, 0, prefix.length);
        if (!slash) {
            p[prefix.length] = '/';
        }
        System.arraycopy(name, 0, p, p.length - name.length, name.length);
        return p;
    }

    /**
     * A path as Rust's {@code {:?}} prints it: in double quotes, {@code \t \r \n \\ \"} and
     * other control or invisible characters as a backslash, {@code u} and the braced hex code point, bytes that are not
     * UTF-8 as {@code \xNN}.
     */
    public static String quote(byte[] path) {
        StringBuilder sb = new StringBuilder("\"");
        int i = 0;
        while (i < path.length) {
            int len = utf8Length(path, i);
            if (len == 0) {
                sb.append(String.format("\\x%02X", path[i] & 0xff));
                i++;
                continue;
            }
            String ch = new String(path, i, len, StandardCharsets.UTF_8);
            int cp = ch.codePointAt(0);
            switch (cp) {
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                case '\n' -> sb.append("\\n");
                case '\\' -> sb.append("\\\\");
                case '"' -> sb.append("\\\"");
                default -> {
                    int t = Character.getType(cp);
                    boolean invisible = t == Character.CONTROL || t == Character.FORMAT || t == Character.UNASSIGNED
                            || t == Character.PRIVATE_USE || t == Character.LINE_SEPARATOR
                            || t == Character.PARAGRAPH_SEPARATOR || (t == Character.SPACE_SEPARATOR && cp != ' ');
                    sb.append(invisible ? "\\" + "u{" + Integer.toHexString(cp) + "}" : ch);
                }
            }
            i += len;
        }
        return sb.append('"').toString();
    }

    /** Length of the valid UTF-8 sequence at {@code i}, or 0 if the byte there does not start one. */
    private static int utf8Length(byte[] b, int i) {
        int c = b[i] & 0xff;
        int n = c < 0x80 ? 1 : c >= 0xc2 && c < 0xe0 ? 2 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xf0 && c < 0xf5 ? 4 : 0;
        if (n <= 1 || i + n > b.length) {
            return i + n > b.length ? 0 : n;
        }
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(b, i, n));
            return n;
        } catch (CharacterCodingException e) {
            return 0;
        }
    }
}
