package org.jpbs.datastore.config;

import java.util.Map;
import java.util.Optional;

/**
 * The {@code maintenance-mode} of a datastore ({@code docs/datastore-config.md#maintenance-mode}):
 * {@code [type=]<type>[,message=<text>]}, the message percent-encoded (at most 64 characters,
 * no control characters). PBS 3.1.2 writes {@code read-only,message=moving disks} (vectors
 * {@code real-pbs/config/datastore.cfg}); both forms are read.
 *
 * <p>Allowed operations:
 * <table>
 * <caption>maintenance modes</caption>
 * <tr><th>mode</th><th>lookup</th><th>read</th><th>write</th></tr>
 * <tr><td>read-only</td><td>ok</td><td>ok</td><td>refused</td></tr>
 * <tr><td>offline</td><td>ok</td><td>refused</td><td>refused</td></tr>
 * <tr><td>unmount</td><td>ok</td><td>refused</td><td>refused</td></tr>
 * <tr><td>delete</td><td>refused</td><td>refused</td><td>refused</td></tr>
 * </table>
 *
 * @param type       the mode
 * @param rawMessage the message as written in the config (percent-encoded), or null
 */
public record MaintenanceMode(Type type, String rawMessage) {
    /** Longest message (encoded), as the PBS schema. */
    public static final int MAX_MESSAGE = 64;

    /** The maintenance types. */
    public enum Type {
        /** Reads allowed, writes refused. */
        READ_ONLY("read-only"),
        /** Everything but lookups refused. */
        OFFLINE("offline"),
        /** Set while a removable datastore is unmounted; treated like offline. */
        UNMOUNT("unmount"),
        /** Set while a datastore is being removed; everything refused. */
        DELETE("delete");

        private final String text;

        Type(String text) {
            this.text = text;
        }

        /** The config word, e.g. {@code read-only}. */
        public String text() {
            return text;
        }

        /**
         * Parses a config word.
         *
         * @throws IllegalArgumentException naming the value and the allowed words
         */
        public static Type parse(String s) {
            for (Type t : values()) {
                if (t.text.equals(s)) {
                    return t;
                }
            }
            throw new IllegalArgumentException("maintenance-mode: unknown type '" + s
                    + "' (expected read-only, offline, unmount or delete)");
        }
    }

    /** Validates the message. */
    public MaintenanceMode {
        java.util.Objects.requireNonNull(type, "type");
        if (rawMessage != null) {
            if (rawMessage.length() > MAX_MESSAGE) {
                throw new IllegalArgumentException("maintenance-mode: message longer than " + MAX_MESSAGE + " characters");
            }
            if (rawMessage.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                throw new IllegalArgumentException("maintenance-mode: message contains a control character");
            }
            if (rawMessage.indexOf(',') >= 0 || rawMessage.indexOf('"') >= 0) {
                throw new IllegalArgumentException("maintenance-mode: message must not contain ',' or '\"' (percent-encode them)");
            }
        }
    }

    /**
     * Parses a {@code maintenance-mode} value.
     *
     * @throws IllegalArgumentException {@code "maintenance-mode: ..."} on a syntax error, an unknown
     *                                  type or key, or a bad message
     */
    public static MaintenanceMode parse(String value) {
        Map<String, String> m = PropertyString.parse("maintenance-mode", value, "type");
        for (String k : m.keySet()) {
            if (!k.equals("type") && !k.equals("message")) {
                throw new IllegalArgumentException("maintenance-mode: unknown key '" + k + "'");
            }
        }
        String t = m.get("type");
        if (t == null) {
            throw new IllegalArgumentException("maintenance-mode: missing type");
        }
        return new MaintenanceMode(Type.parse(t.strip()), m.get("message"));
    }

    /** The message, percent-decoded, if any. */
    public Optional<String> message() {
        return rawMessage == null || rawMessage.isEmpty() ? Optional.empty()
                : Optional.of(PropertyString.percentDecode(rawMessage));
    }

    /** The config value, PBS 3.1.2 style: {@code <type>[,message=<raw message>]}. */
    public String format() {
        return type.text() + (rawMessage == null ? "" : ",message=" + rawMessage);
    }

    /**
     * Whether {@code op} may start on datastore {@code store} in this mode.
     *
     * @return empty if allowed, else the refusal, e.g. {@code "datastore 'store1' is in read-only
     *         maintenance mode: moving disks"} (the text the real PBS answered, vectors
     *         {@code real-pbs/README.md})
     */
    public Optional<String> refusal(String store, Operation op) {
        String suffix = message().map(m -> ": " + m).orElse("");
        return switch (type) {
            case DELETE -> Optional.of("datastore '" + store + "' is being deleted");
            case OFFLINE -> op == Operation.LOOKUP ? Optional.empty()
                    : Optional.of("datastore '" + store + "' is in offline maintenance mode" + suffix);
            case UNMOUNT -> op == Operation.LOOKUP ? Optional.empty()
                    : Optional.of("datastore '" + store + "' is being unmounted" + suffix);
            case READ_ONLY -> op != Operation.WRITE ? Optional.empty()
                    : Optional.of("datastore '" + store + "' is in read-only maintenance mode" + suffix);
        };
    }
}
