package org.jpbs.server.auth;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.SafeId;

/**
 * ACL paths ({@code docs/api.md#conventions-as-pbs}): {@code /}, {@code /datastore},
 * {@code /datastore/<store>}, {@code /datastore/<store>/<ns1>/.../<ns7>}, and the other PBS
 * trees {@code /access/...}, {@code /remote/...}, {@code /system/...}, {@code /tape/...}.
 * Stateless helpers.
 */
public final class AclPaths {
    private static final Set<String> TOP = Set.of("access", "datastore", "remote", "system", "tape");
    private static final Pattern COMPONENT = Pattern.compile("[A-Za-z0-9_@!.\\-]+");

    private AclPaths() {}

    /**
     * Validates and normalises an ACL path (repeated and trailing slashes dropped).
     *
     * @return {@code /} or {@code /a/b}
     * @throws IllegalArgumentException {@code "invalid ACL path '<p>'"} with the reason
     */
    public static String check(String path) {
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("invalid ACL path '" + path + "' (must start with '/')");
        }
        List<String> c = components(path);
        if (c.isEmpty()) {
            return "/";
        }
        for (String s : c) {
            if (!COMPONENT.matcher(s).matches()) {
                throw bad(path, "invalid component '" + s + "'");
            }
        }
        if (!TOP.contains(c.getFirst())) {
            throw bad(path, "unknown top level '" + c.getFirst() + "'");
        }
        if (c.getFirst().equals("datastore") && c.size() > 1) {
            String store = c.get(1);
            if (!SafeId.isValid(store) || store.length() < 3 || store.length() > 32) {
                throw bad(path, "invalid datastore name '" + store + "'");
            }
            if (c.size() - 2 > BackupNamespace.MAX_DEPTH) {
                throw bad(path, "namespace deeper than " + BackupNamespace.MAX_DEPTH + " levels");
            }
            for (String ns : c.subList(2, c.size())) {
                if (!SafeId.isValid(ns)) {
                    throw bad(path, "invalid namespace component '" + ns + "'");
                }
            }
        }
        return "/" + String.join("/", c);
    }

    private static IllegalArgumentException bad(String path, String why) {
        return new IllegalArgumentException("invalid ACL path '" + path + "' (" + why + ")");
    }

    /** The non-empty components of a path ({@code "/datastore/a"} gives {@code [datastore, a]}). */
    public static List<String> components(String path) {
        List<String> out = new ArrayList<>();
        for (String s : path.split("/")) {
            if (!s.isEmpty()) {
                out.add(s);
            }
        }
        return out;
    }

    /**
     * The ACL path of a namespace on a remote's datastore (sync jobs in push direction):
     * {@code [remote, <remote>, <store>, <ns components>...]}.
     */
    public static List<String> remote(String remote, String store, BackupNamespace ns) {
        List<String> out = new ArrayList<>(List.of("remote", remote, store));
        out.addAll(ns.components());
        return out;
    }

    /** The ACL path of a datastore namespace: {@code [datastore, <store>, <ns components>...]}. */
    public static List<String> datastore(String store, BackupNamespace ns) {
        List<String> out = new ArrayList<>(2 + ns.depth());
        out.add("datastore");
        out.add(store);
        out.addAll(ns.components());
        return out;
    }

    /** {@code /a/b} form of components ({@code /} for none). */
    public static String toString(List<String> components) {
        return components.isEmpty() ? "/" : "/" + String.join("/", components);
    }
}
