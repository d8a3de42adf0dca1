package org.jpbs.client.pxar.shell;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import org.jpbs.core.pxar.Metadata;
import org.jpbs.core.pxar.PxarEntry;
import org.jpbs.core.pxar.PxarFormat;
import org.jpbs.core.pxar.Stat;
import org.jpbs.core.pxar.catalog.CatalogDump;

/**
 * The shell's {@code stat} output, as the PBS client prints an archive entry
 * ({@code format_multi_line_entry}): name (and link target), size and type, octal permissions
 * with the {@code ls -l} style mode string (a second {@code +} for xattrs), owner ids and the
 * local modification time. PBS's texts are kept as they are, including its type names for a
 * hardlink ({@code symlink}) and a character device.
 */
final class EntryStat {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");

    private EntryStat() {}

    static String format(PxarEntry e, ZoneId zone) {
        Metadata m = e.metadata();
        Stat st = m != null ? m.stat() : new Stat(0, 0, 0, 0, 0, 0); // a hardlink carries no metadata of its own
        String size = "0";
        String link = "";
        String type;
        switch (e.kind()) {
            case FILE -> {
                size = Long.toString(e.fileSize());
                type = "file";
            }
            case SYMLINK -> {
                link = " -> " + CatalogDump.quote(e.linkTarget());
                type = "symlink";
            }
            case HARDLINK -> {
                link = " -> " + CatalogDump.quote(e.linkTarget());
                type = "symlink";
            }
            case DEVICE -> {
                size = e.deviceMajor() + "," + e.deviceMinor();
                type = st.fileType() == PxarFormat.S_IFCHR ? "characters pecial file"
                        : st.fileType() == PxarFormat.S_IFBLK ? "block special file" : "device";
            }
            case SOCKET -> type = "socket";
            case FIFO -> type = "fifo";
            default -> type = "directory";
        }
        byte[] path = new byte[e.path().length + 1];
        path[0] = '/';
        System.arraycopy(e.path(), 0, path, 1, e.path().length);
        return "  File: " + name(path) + link + "\n"
                + "  Size: " + pad(size, 13) + " Type: " + type + "\n"
                + "Access: (" + Integer.toOctalString(st.permissions()) + "/" + modeString(e, m, st) + ")  Uid: "
                + pad(Integer.toUnsignedString(st.uid()), 5) + " Gid: " + pad(Integer.toUnsignedString(st.gid()), 5) + "\n"
                + "Modify: " + TIME.format(Instant.ofEpochSecond(st.mtimeSecs()).atZone(zone)) + "\n";
    }

    /** The path as UTF-8, or quoted if it is not valid UTF-8 (as PBS). */
    private static String name(byte[] path) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(path)).toString();
        } catch (CharacterCodingException x) {
            return CatalogDump.quote(path);
        }
    }

    /** {@code ls -l} style: type, rwx with s/S/t/T, then '+' or ' ' for ACLs and for xattrs. */
    static String modeString(PxarEntry e, Metadata m, Stat st) {
        long mode = st.mode();
        char t;
        if (e.kind() == PxarEntry.Kind.HARDLINK) {
            t = 'L';
        } else {
            t = switch ((int) (mode & PxarFormat.S_IFMT)) {
                case 0100000 -> '-';
                case 0060000 -> 'b';
                case 0020000 -> 'c';
                case 0040000 -> 'd';
                case 0120000 -> 'l';
                case 0010000 -> 'p';
                case 0140000 -> 's';
                default -> '?';
            };
        }
        boolean acl = m != null && !m.acl().isEmpty();
        boolean xattrs = m != null && !m.xattrs().isEmpty();
        return t + rwx(mode >> 6, (mode & 04000) != 0, 's', 'S') + rwx(mode >> 3, (mode & 02000) != 0, 's', 'S')
                + rwx(mode, (mode & 01000) != 0, 't', 'T') + (acl ? '+' : ' ') + (xattrs ? '+' : ' ');
    }

    private static String rwx(long bits, boolean special, char withX, char withoutX) {
        boolean x = (bits & 1) != 0;
        return "" + ((bits & 4) != 0 ? 'r' : '-') + ((bits & 2) != 0 ? 'w' : '-')
                + (special ? (x ? withX : withoutX) : (x ? 'x' : '-'));
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}
