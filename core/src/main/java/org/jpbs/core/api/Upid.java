package org.jpbs.core.api;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A PBS task id ("UPID"), as stored in {@code .gc-status} and in a manifest's
 * {@code verify_state} (spec {@code pbs-datastore-ops.md} §1.6, §3.1):
 * {@code UPID:<node>:<pid>:<pstart>:<task-id>:<starttime>:<type>:<worker-id>:<authid>:}, the four
 * numbers as 8 upper-case hex digits (e.g.
 * {@code UPID:vm:0000147C:0007625F:00000007:6B0DDDDE:verify:golden:root@pam:}). The worker id is
 * escaped like a systemd unit name ({@link #escapeWorkerId}).
 *
 * @param node      host name
 * @param pid       process id
 * @param pstart    process start time in clock ticks since boot (0 if unknown)
 * @param taskId    per-process task counter
 * @param startTime task start, epoch seconds
 * @param type      worker type, e.g. {@code garbage_collection}, {@code verify}, {@code prune}
 * @param workerId  worker id, unescaped (usually the datastore name), may be empty
 * @param authId    user or token that ran the task, e.g. {@code root@pam}
 */
public record Upid(String node, long pid, long pstart, long taskId, long startTime, String type, String workerId,
                   String authId) {
    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    /** @throws IllegalArgumentException if a text field contains {@code ':'} or a number is out of range */
    public Upid {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(workerId, "workerId");
        Objects.requireNonNull(authId, "authId");
        for (String s : new String[] {node, type, authId}) {
            if (s.indexOf(':') >= 0) {
                throw new IllegalArgumentException("UPID field must not contain ':': '" + s + "'");
            }
        }
        for (long v : new long[] {pid, pstart, taskId, startTime}) {
            if (v < 0 || v > 0xffff_ffffL) {
                throw new IllegalArgumentException("UPID number out of range: " + v);
            }
        }
    }

    /**
     * Parses a UPID string.
     *
     * @throws IllegalArgumentException naming the value if it is not a UPID
     */
    public static Upid parse(String s) {
        if (s == null || !s.startsWith("UPID:") || !s.endsWith(":")) {
            throw new IllegalArgumentException("not a UPID: '" + s + "'");
        }
        String[] f = s.substring(5, s.length() - 1).split(":", -1);
        if (f.length != 8) {
            throw new IllegalArgumentException("not a UPID (expected 8 fields): '" + s + "'");
        }
        try {
            return new Upid(f[0], hex(f[1]), hex(f[2]), hex(f[3]), hex(f[4]), f[5], unescapeWorkerId(f[6]), f[7]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a UPID: '" + s + "': " + e.getMessage(), e);
        }
    }

    private static long hex(String s) {
        if (s.isEmpty() || s.length() > 8) {
            throw new IllegalArgumentException("bad hex number '" + s + "'");
        }
        return HexFormat.fromHexDigitsToLong(s);
    }

    /**
     * Escapes a worker id as PBS does (systemd unit-name escaping): {@code /} becomes {@code -},
     * ASCII letters, digits, {@code _} and {@code .} (not leading) stay, every other byte becomes
     * {@code \xNN}.
     */
    public static String escapeWorkerId(String id) {
        StringBuilder sb = new StringBuilder();
        byte[] b = id.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < b.length; i++) {
            int c = b[i] & 0xff;
            if (c == '/') {
                sb.append('-');
            } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
                    || (c == '.' && i > 0)) {
                sb.append((char) c);
            } else {
                sb.append("\\x").append(HexFormat.of().toHexDigits((byte) c));
            }
        }
        return sb.toString();
    }

    /** Reverses {@link #escapeWorkerId}. */
    public static String unescapeWorkerId(String s) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '-') {
                out.write('/');
            } else if (c == '\\' && i + 3 < s.length() && s.charAt(i + 1) == 'x') {
                out.write(HexFormat.fromHexDigits(s, i + 2, i + 4));
                i += 3;
            } else {
                out.write(c);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The UPID text. */
    @Override
    public String toString() {
        return "UPID:" + node + ":" + HEX.toHexDigits((int) pid) + ":" + HEX.toHexDigits((int) pstart) + ":"
                + HEX.toHexDigits((int) taskId) + ":" + HEX.toHexDigits((int) startTime) + ":" + type + ":"
                + escapeWorkerId(workerId) + ":" + authId + ":";
    }
}
