package org.jpbs.client.remote;

import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where backups go: a remote datastore {@code [[auth-id@]host[:port]:]datastore} ({@code docs/protocol.md#authentication}, "Repository syntax") or a local datastore directory.
 *
 * <p>Parsing ({@link #parse}): a string starting with {@code /}, {@code .} or {@code ~}, or one
 * without a {@code :} that contains a {@code /} ({@code sub/dir}), is a local path. A bare name
 * (no {@code :}, no {@code /}) is, as for proxmox-backup-client, a datastore on
 * {@code root@pam@localhost:8007}. Anything else is remote: the datastore follows the last
 * {@code :}, the auth id (a user {@code user@realm} or a token {@code user@realm!name}, default
 * {@code root@pam}) precedes the last {@code @}, the host is a DNS name, an IPv4 address or an
 * IPv6 address in brackets, and the port (default 8007) follows the host. Examples:
 * {@code pbs.example:store1}, {@code backup@pbs@pbs.example:store1},
 * {@code backup@pbs!pve@pbs.example:8007:store1}, {@code [fe80::1]:1234:store1}.
 *
 * @param authId    {@code user@realm} or {@code user@realm!token} (null for local)
 * @param host      DNS name or IP literal, IPv6 without brackets (null for local)
 * @param port      TCP port (0 for local)
 * @param store     datastore name (null for local)
 * @param localPath the datastore directory (null for remote)
 */
public record Repository(String authId, String host, int port, String store, Path localPath) {
    /** The PBS port. */
    public static final int DEFAULT_PORT = 8007;
    /** The default auth id. */
    public static final String DEFAULT_AUTH_ID = "root@pam";

    private static final Pattern STORE = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._\\-]*");
    private static final Pattern DNS = Pattern.compile(
            "(?:[A-Za-z0-9](?:[A-Za-z0-9\\-]*[A-Za-z0-9])?)(?:\\.[A-Za-z0-9](?:[A-Za-z0-9\\-]*[A-Za-z0-9])?)*");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]+(?:%[A-Za-z0-9_.\\-]+)?");
    private static final Pattern USER = Pattern.compile("[^\\s:/@!\\p{Cntrl}]+");
    private static final Pattern REALM = Pattern.compile("[A-Za-z][A-Za-z0-9._\\-]+");
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._\\-]*");

    /** Checks the combination. */
    public Repository {
        if (localPath == null) {
            Objects.requireNonNull(authId, "authId");
            Objects.requireNonNull(host, "host");
            Objects.requireNonNull(store, "store");
        }
    }

    /** A local datastore directory. */
    public static Repository local(Path path) {
        return new Repository(null, null, 0, null, path);
    }

    /** A remote datastore (checks nothing but nulls; {@link #parse} validates). */
    public static Repository remote(String authId, String host, int port, String store) {
        return new Repository(authId, host, port, store, null);
    }

    /**
     * Parses a repository string.
     *
     * @throws IllegalArgumentException naming the string and what is wrong
     */
    public static Repository parse(String s) {
        if (s == null || s.isEmpty()) {
            throw new IllegalArgumentException("empty repository");
        }
        if (isLocalPath(s)) {
            return local(Path.of(s));
        }
        int colon = lastColonOutsideBrackets(s);
        if (colon == -2) {
            throw bad(s, "missing ']' after the IPv6 address");
        }
        if (colon < 0) {
            if (!validStore(s)) {
                throw bad(s, "datastore name '" + s + "' is invalid (3..32 characters A-Z a-z 0-9 _ . -;"
                        + " a bare name means a datastore on localhost, write a local directory as ./" + s + ")");
            }
            return remote(DEFAULT_AUTH_ID, "localhost", DEFAULT_PORT, s);
        }
        String store = s.substring(colon + 1);
        String prefix = s.substring(0, colon);
        if (!validStore(store)) {
            throw bad(s, "datastore name '" + store + "' is invalid (3..32 characters A-Z a-z 0-9 _ . -)");
        }
        String authId = DEFAULT_AUTH_ID;
        int at = prefix.lastIndexOf('@');
        int bracket = prefix.indexOf('[');
        if (at >= 0 && (bracket < 0 || at < bracket)) {
            authId = prefix.substring(0, at);
            prefix = prefix.substring(at + 1);
            checkAuthId(s, authId);
        }
        String host;
        int port = DEFAULT_PORT;
        String portText = null;
        if (prefix.startsWith("[")) {
            int close = prefix.indexOf(']');
            if (close < 0) {
                throw bad(s, "missing ']' after the IPv6 address");
            }
            host = prefix.substring(1, close);
            if (!IPV6.matcher(host).matches() || !host.contains(":")) {
                throw bad(s, "invalid IPv6 address '" + host + "'");
            }
            String rest = prefix.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    throw bad(s, "unexpected '" + rest + "' after the IPv6 address");
                }
                portText = rest.substring(1);
            }
        } else {
            int pc = prefix.indexOf(':');
            host = pc < 0 ? prefix : prefix.substring(0, pc);
            if (pc >= 0) {
                portText = prefix.substring(pc + 1);
            }
            if (host.isEmpty() || !DNS.matcher(host).matches()) {
                throw bad(s, "invalid host '" + host + "'");
            }
        }
        if (portText != null) {
            if (!portText.matches("[0-9]{1,5}") || Integer.parseInt(portText) < 1 || Integer.parseInt(portText) > 65535) {
                throw bad(s, "invalid port '" + portText + "' (1..65535)");
            }
            port = Integer.parseInt(portText);
        }
        return remote(authId, host, port, store);
    }

    /**
     * True if {@code s} is written as a local path: it starts with {@code /}, {@code .} or
     * {@code ~}, or it has a {@code /} but no {@code :}.
     */
    public static boolean isLocalPath(String s) {
        return s.startsWith("/") || s.startsWith(".") || s.startsWith("~") || (s.contains("/") && !s.contains(":"));
    }

    private static boolean validStore(String store) {
        return STORE.matcher(store).matches() && store.length() >= 3 && store.length() <= 32;
    }

    /** Index of the last ':' outside brackets, -1 if none, -2 if a '[' is not closed. */
    private static int lastColonOutsideBrackets(String s) {
        int depth = 0;
        int last = -1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth = Math.max(0, depth - 1);
            } else if (c == ':' && depth == 0) {
                last = i;
            }
        }
        return depth > 0 ? -2 : last;
    }

    private static void checkAuthId(String s, String authId) {
        int bang = authId.indexOf('!');
        String user = bang < 0 ? authId : authId.substring(0, bang);
        int at = user.lastIndexOf('@');
        if (at <= 0) {
            throw bad(s, "auth id '" + authId + "' must be user@realm or user@realm!token");
        }
        String name = user.substring(0, at);
        String realm = user.substring(at + 1);
        if (!USER.matcher(name).matches() || !REALM.matcher(realm).matches()) {
            throw bad(s, "invalid auth id '" + authId + "' (expected user@realm or user@realm!token)");
        }
        if (bang >= 0 && !TOKEN.matcher(authId.substring(bang + 1)).matches()) {
            throw bad(s, "invalid token name in '" + authId + "'");
        }
    }

    private static IllegalArgumentException bad(String s, String why) {
        return new IllegalArgumentException("invalid repository '" + s + "': " + why
                + " (expected [[user@realm[!token]@]host[:port]:]datastore or a local path)");
    }

    /** True for a remote datastore. */
    public boolean isRemote() {
        return localPath == null;
    }

    /** True if the auth id is an API token ({@code user@realm!name}). */
    public boolean isToken() {
        return authId != null && authId.contains("!");
    }

    /** The user part of the auth id ({@code user@realm}). */
    public String userId() {
        if (authId == null) {
            return null;
        }
        int bang = authId.indexOf('!');
        return bang < 0 ? authId : authId.substring(0, bang);
    }

    /** {@code host:port}, IPv6 in brackets. */
    public String hostAndPort() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /** The canonical form: {@code authid@host:port:store}, or the local path. */
    @Override
    public String toString() {
        return isRemote() ? authId + "@" + hostAndPort() + ":" + store : localPath.toString();
    }
}
