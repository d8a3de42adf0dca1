package org.jpbs.core.pxar;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A canonical, line-per-fact rendering of a pxar archive's items, made two ways: from the
 * annotated item dump of an independent decoder ({@code *.items.txt} next to the real-pxar
 * vectors, whose byte strings are Python literals), and from jpbs's {@link PxarDecoder}. The
 * two lists must be equal.
 */
final class ItemListing {
    private static final Pattern LINE = Pattern.compile("^\\s*@\\s*(\\d+) 0x\\p{XDigit}+ htype=0x(\\p{XDigit}{16}) (\\w+)\\s+full_size=(\\d+)\\s*(.*)$");
    private static final HexFormat HEX = HexFormat.of();

    private ItemListing() {}

    /** The listing from an {@code items.txt} dump. */
    static List<String> fromDump(Path itemsTxt) throws IOException {
        List<String> out = new ArrayList<>();
        ArrayDeque<String> dirs = new ArrayDeque<>();
        String pendingName = null;
        for (String line : Files.readAllLines(itemsTxt, StandardCharsets.UTF_8)) {
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                continue;
            }
            String type = m.group(3);
            String rest = m.group(5);
            switch (type) {
                case "ENTRY" -> {
                    String path = show(pyString(rest, "path="));
                    long mode = Long.parseLong(field(rest, "mode=0o"), 8);
                    out.add("ENTRY " + path + " mode=" + Long.toOctalString(mode) + " flags=" + field(rest, "flags=")
                            + " uid=" + field(rest, "uid=") + " gid=" + field(rest, "gid=") + " mtime=" + field(rest, "mtime="));
                    if ((mode & 0170000) == 0040000) {
                        dirs.push(path);
                    }
                }
                case "FILENAME" -> pendingName = show(pyBytes(rest, "name="));
                case "XATTR" -> out.add("XATTR " + HEX.formatHex(pyBytes(rest, "name=")) + "=" + HEX.formatHex(pyBytes(rest, "value=")));
                case "ACL_USER", "ACL_GROUP", "ACL_DEFAULT_USER", "ACL_DEFAULT_GROUP" ->
                        out.add(type + " " + field(rest, "id=") + " " + Long.decode(field(rest, "perms=")));
                case "ACL_GROUP_OBJ" -> out.add(type + " " + Long.decode(field(rest, "perms=")));
                case "ACL_DEFAULT" -> out.add(type + " " + Long.decode(field(rest, "user_obj=")) + " "
                        + Long.decode(field(rest, "group_obj=")) + " " + Long.decode(field(rest, "other=")) + " "
                        + Long.decode(field(rest, "mask=")));
                case "FCAPS" -> out.add("FCAPS " + field(rest, "hex="));
                case "PAYLOAD" -> out.add("PAYLOAD " + field(rest, "size="));
                case "SYMLINK" -> out.add("SYMLINK " + show(pyBytes(rest, "target=")));
                case "DEVICE" -> out.add("DEVICE " + field(rest, "major=") + " " + field(rest, "minor="));
                case "HARDLINK" -> {
                    String dir = dirs.peek();
                    out.add("HARDLINK " + (dir.equals("/") ? "/" : dir + "/") + pendingName + " offset="
                            + field(rest, "offset=") + " target=" + show(pyBytes(rest, "target=")));
                }
                case "GOODBYE" -> {
                    out.add("GOODBYE " + show(pyString(rest, "dir=")) + " children=" + field(rest, "children="));
                    dirs.pop();
                }
                default -> throw new IllegalStateException("unknown item in dump: " + line);
            }
        }
        return out;
    }

    /** The listing jpbs's decoder gives for an archive. */
    static List<String> fromDecoder(PxarDecoder d) throws IOException {
        List<String> out = new ArrayList<>();
        ArrayDeque<int[]> childCounts = new ArrayDeque<>();
        PxarEntry e;
        while ((e = d.next()) != null) {
            String path = show(("/" + "").getBytes(StandardCharsets.UTF_8), e.path());
            if (e.kind() != PxarEntry.Kind.DIRECTORY_END && !childCounts.isEmpty()) {
                childCounts.peek()[0]++;
            }
            if (e.kind() == PxarEntry.Kind.HARDLINK) {
                out.add("HARDLINK " + path + " offset=" + e.hardlinkOffset() + " target=" + show(e.linkTarget()));
                continue;
            }
            if (e.kind() == PxarEntry.Kind.DIRECTORY_END) {
                out.add("GOODBYE " + path + " children=" + childCounts.pop()[0]);
                continue;
            }
            Metadata m = e.metadata();
            Stat s = m.stat();
            out.add("ENTRY " + path + " mode=" + Long.toOctalString(s.mode()) + " flags=0x" + Long.toHexString(s.flags())
                    + " uid=" + s.uid() + " gid=" + s.gid() + " mtime=" + s.mtimeSecs() + "." + String.format("%09d", s.mtimeNanos()));
            for (XAttr x : m.xattrs()) {
                out.add("XATTR " + HEX.formatHex(x.name()) + "=" + HEX.formatHex(x.value()));
            }
            Acl a = m.acl();
            a.users().forEach(u -> out.add("ACL_USER " + u.id() + " " + u.permissions()));
            a.groups().forEach(u -> out.add("ACL_GROUP " + u.id() + " " + u.permissions()));
            if (a.groupObj() != null) {
                out.add("ACL_GROUP_OBJ " + a.groupObj());
            }
            if (a.defaultAcl() != null) {
                Acl.Default df = a.defaultAcl();
                out.add("ACL_DEFAULT " + df.userObj() + " " + df.groupObj() + " " + df.other() + " " + df.mask());
            }
            a.defaultUsers().forEach(u -> out.add("ACL_DEFAULT_USER " + u.id() + " " + u.permissions()));
            a.defaultGroups().forEach(u -> out.add("ACL_DEFAULT_GROUP " + u.id() + " " + u.permissions()));
            if (m.fcaps() != null) {
                out.add("FCAPS " + HEX.formatHex(m.fcaps()));
            }
            switch (e.kind()) {
                case DIRECTORY -> childCounts.push(new int[1]);
                case FILE -> out.add("PAYLOAD " + e.fileSize());
                case SYMLINK -> out.add("SYMLINK " + show(e.linkTarget()));
                case DEVICE -> out.add("DEVICE " + e.deviceMajor() + " " + e.deviceMinor());
                default -> { }
            }
        }
        return out;
    }

    private static String field(String rest, String key) {
        int i = rest.indexOf(key);
        if (i < 0) {
            throw new IllegalStateException("no " + key + " in " + rest);
        }
        int j = i + key.length();
        int k = j;
        while (k < rest.length() && rest.charAt(k) != ' ') {
            k++;
        }
        return rest.substring(j, k);
    }

    /** Lossless display: printable ASCII except '%' as is, everything else %XX. */
    static String show(byte[]... parts) {
        StringBuilder sb = new StringBuilder();
        for (byte[] p : parts) {
            for (byte b : p) {
                int c = b & 0xff;
                if (c > 0x20 && c < 0x7f && c != '%' || c == ' ') {
                    sb.append((char) c);
                } else {
                    sb.append('%').append(String.format("%02X", c));
                }
            }
        }
        return sb.toString();
    }

    private static byte[] pyBytes(String rest, String key) {
        int i = rest.indexOf(key + "b");
        return literal(rest, i + key.length() + 1, true);
    }

    private static byte[] pyString(String rest, String key) {
        int i = rest.indexOf(key);
        return literal(rest, i + key.length(), false);
    }

    /** Unescapes a Python bytes or str literal starting with its quote at {@code q}. */
    private static byte[] literal(String s, int q, boolean bytes) {
        char quote = s.charAt(q);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int i = q + 1;
        while (s.charAt(i) != quote) {
            char c = s.charAt(i++);
            if (c != '\\') {
                byte[] enc = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c)) {
                    enc = s.substring(i - 1, i + 1).getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                out.writeBytes(enc);
                continue;
            }
            char e = s.charAt(i++);
            switch (e) {
                case 't' -> out.write('\t');
                case 'n' -> out.write('\n');
                case 'r' -> out.write('\r');
                case '\\', '\'', '"' -> out.write(e);
                case 'x' -> {
                    int v = Integer.parseInt(s.substring(i, i + 2), 16);
                    i += 2;
                    if (bytes) {
                        out.write(v);
                    } else {
                        out.writeBytes(String.valueOf((char) v).getBytes(StandardCharsets.UTF_8));
                    }
                }
                default -> throw new IllegalStateException("escape \\" + e + " in " + s);
            }
        }
        return out.toByteArray();
    }
}
