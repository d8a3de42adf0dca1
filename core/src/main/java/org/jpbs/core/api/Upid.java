package org.jpbs.core.api;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A PBS task id, "UPID" ({@code docs/datastore-config.md#tasks}):
 * {@code UPID:<node>:<pid>:<pstart>:<task id>:<start time>:<worker type>:<worker id>:<auth id>:}
 * with every number upper-case hex, zero-padded to 8 digits, and the worker id escaped
 * systemd-style ({@code /} becomes {@code -}, every byte other than {@code [A-Za-z0-9_.]} (and a
 * leading {@code .}) becomes {@code \xNN}). Example (vectors {@code real-pbs/api/tasks.body}):
 * {@code UPID:vm:0000147C:0007625F:00000006:6B0DDDDD:backup:golden\x3avm-200:bench@pbs!t1:}.
 *
 * @param node       node name ({@code [A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?})
 * @param pid        process id of the server
 * @param pstart     process start time in clock ticks since boot ({@code /proc/self/stat} field 22)
 * @param taskId     per-process task counter
 * @param startTime  task start, seconds since the epoch
 * @param workerType e.g. {@code backup}, {@code garbage_collection}
 * @param workerId   unescaped worker id, e.g. {@code golden:vm/200}; empty if none
 * @param authId     who started the task, e.g. {@code root@pam} or {@code bench@pbs!t1}
 */
public record Upid(String node, long pid, long pstart, long taskId, long startTime, String workerType,
                   String workerId, String authId) {
    private static final Pattern NODE = Pattern.compile("[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?");
    private static final Pattern PARSE = Pattern.compile("^UPID:([a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?):"
            + "([0-9A-Fa-f]{8}):([0-9A-Fa-f]{8,9}):([0-9A-Fa-f]{8,16}):([0-9A-Fa-f]{8}):([^:\\s]+):([^:\\s]*):([^:\\s]+):$");
    private static final Pattern TOKEN = Pattern.compile("[^:\\s]+");
    private static final HexFormat HEX = HexFormat.of();

    /** Validates the fields so that {@link #toString()} parses back to an equal value. */
    public Upid {
        Objects.requireNonNull(workerId, "workerId");
        if (node == null || !NODE.matcher(node).matches()) {
            throw new IllegalArgumentException("invalid UPID node name '" + node + "'");
        }
        if (workerType == null || !TOKEN.matcher(workerType).matches()) {
            throw new IllegalArgumentException("invalid UPID worker type '" + workerType + "'");
        }
        if (authId == null || !TOKEN.matcher(authId).matches()) {
            throw new IllegalArgumentException("invalid UPID auth id '" + authId + "'");
        }
        if (pid < 0 || pid > 0xFFFF_FFFFL || pstart < 0 || pstart > 0xF_FFFF_FFFFL || taskId < 0
                || startTime < 0 || startTime > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("UPID number out of range");
        }
    }

    /**
     * Parses a UPID string (the exact form of the class comment; hex digits of either case).
     *
     * @throws IllegalArgumentException {@code "unable to parse UPID '<s>'"} if it does not match
     */
    public static Upid parse(String s) {
        Matcher m = s == null ? null : PARSE.matcher(s);
        if (m == null || !m.matches()) {
            throw new IllegalArgumentException("unable to parse UPID '" + s + "'");
        }
        String workerId;
        try {
            workerId = unescape(m.group(8));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unable to parse UPID '" + s + "': " + e.getMessage());
        }
        return new Upid(m.group(1), Long.parseLong(m.group(3), 16), Long.parseLong(m.group(4), 16),
                Long.parseUnsignedLong(m.group(5), 16), Long.parseLong(m.group(6), 16), m.group(7), workerId, m.group(9));
    }

    /** The UPID text, with a trailing colon. */
    @Override
    public String toString() {
        return "UPID:" + node + ":" + hex8(pid) + ":" + hex8(pstart) + ":" + hex8(taskId) + ":" + hex8(startTime) + ":"
                + workerType + ":" + escape(workerId) + ":" + authId + ":";
    }

    private static String hex8(long v) {
        return String.format(Locale.ROOT, "%08X", v);
    }

    /**
     * Systemd unit-name escaping as PBS uses it for worker ids: {@code /} → {@code -}; ASCII
     * letters, digits, {@code _} and {@code .} (but not a leading {@code .}) stay; every other
     * UTF-8 byte becomes {@code \xNN} (lower-case hex).
     */
    public static String escape(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder(b.length + 8);
        for (int i = 0; i < b.length; i++) {
            int c = b[i] & 0xff;
            if (c == '/') {
                sb.append('-');
            } else if ((i > 0 || c != '.') && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '_' || c == '.')) {
                sb.append((char) c);
            } else {
                sb.append("\\x").append(HEX.toHexDigits((byte) c));
            }
        }
        return sb.toString();
    }

    /**
     * Reverses {@link #escape}.
     *
     * @throws IllegalArgumentException on a malformed {@code \x} escape
     */
    public static String unescape(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '-') {
                out.write('/');
            } else if (c == '\\') {
                if (i + 3 >= s.length() || s.charAt(i + 1) != 'x') {
                    throw new IllegalArgumentException("bad escape sequence in '" + s + "'");
                }
                try {
                    out.write(HexFormat.fromHexDigits(s, i + 2, i + 4));
                } catch (IndexOutOfBoundsException | NumberFormatException e) {
                    throw new IllegalArgumentException("bad escape sequence in '" + s + "'");
                }
                i += 3;
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                out.write(b, 0, b.length);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The user part of {@link #authId} ({@code bench@pbs} for {@code bench@pbs!t1}). */
    public String user() {
        int bang = authId.indexOf('!');
        return bang < 0 ? authId : authId.substring(0, bang);
    }

    /** The token name of {@link #authId}, or null if the task was started by a user. */
    public String tokenName() {
        int bang = authId.indexOf('!');
        return bang < 0 ? null : authId.substring(bang + 1);
    }
}
