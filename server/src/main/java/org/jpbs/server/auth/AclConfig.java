package org.jpbs.server.auth;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The access control list of {@code acl.cfg} ({@code docs/api.md#conventions-as-pbs}; syntax as in
 * vectors {@code real-pbs/config/acl.cfg}): one line per entry,
 * {@code acl:<propagate 0|1>:<path>:<ugid>[,<ugid>...]:<role>[,<role>...]}, where an ugid is an
 * auth id ({@code user@realm}, {@code user@realm!token}) or a group ({@code @name}; kept but
 * never matched: jpbs has no user groups). Writing gives the PBS layout: paths depth-first with
 * children in name order, per path the non-propagating lines before the propagating ones,
 * entries with the same role set merged into one line; {@code root@pam} is never written.
 * Immutable; {@link #update} returns a modified copy. Privilege resolution is in
 * {@link AclResolver}.
 */
public final class AclConfig {
    /** Sorts paths depth-first, children by name ({@code /a}, {@code /a/c}, {@code /a-b}). */
    static final Comparator<String> PATH_ORDER = (a, b) -> {
        List<String> x = AclPaths.components(a);
        List<String> y = AclPaths.components(b);
        for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
            int c = x.get(i).compareTo(y.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(x.size(), y.size());
    };

    /** path -> ugid -> role name -> propagate. */
    private final Map<String, Map<String, Map<String, Boolean>>> nodes;

    private AclConfig(Map<String, Map<String, Map<String, Boolean>>> nodes) {
        this.nodes = nodes;
    }

    /** No entries. */
    public static AclConfig empty() {
        return new AclConfig(new TreeMap<>(PATH_ORDER));
    }

    /**
     * Parses {@code acl.cfg}; blank lines and {@code #} comments are skipped.
     *
     * @throws IllegalArgumentException {@code "<resource> line <n>: ..."} on a malformed line,
     *                                  a bad propagate flag, an invalid path, auth id or an unknown role
     */
    public static AclConfig parse(String text, String resource) {
        AclConfig acl = empty();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String where = resource + " line " + (i + 1) + ": ";
            String[] f = line.split(":", -1);
            if (f.length != 5 || !f[0].equals("acl")) {
                throw new IllegalArgumentException(where + "expected 'acl:<0|1>:<path>:<ugids>:<roles>'");
            }
            if (!f[1].equals("0") && !f[1].equals("1")) {
                throw new IllegalArgumentException(where + "propagate flag must be 0 or 1, not '" + f[1] + "'");
            }
            try {
                String path = AclPaths.check(f[2]);
                for (String ugid : f[3].split(",", -1)) {
                    checkUgid(ugid);
                    for (String role : f[4].split(",", -1)) {
                        acl.insert(path, ugid, Role.parse(role).text(), f[1].equals("1"));
                    }
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + e.getMessage(), e);
            }
        }
        return acl;
    }

    private static void checkUgid(String ugid) {
        if (ugid.startsWith("@")) {
            if (!org.jpbs.core.api.SafeId.isValid(ugid.substring(1))) {
                throw new IllegalArgumentException("invalid group name '" + ugid + "'");
            }
        } else {
            Authid.parse(ugid);
        }
    }

    /** Adds a role the PBS way: NoAccess replaces every other role of the ugid at that path and vice versa. */
    private void insert(String path, String ugid, String role, boolean propagate) {
        Map<String, Boolean> roles = nodes.computeIfAbsent(path, k -> new TreeMap<>())
                .computeIfAbsent(ugid, k -> new TreeMap<>());
        if (role.equals(Role.NO_ACCESS.text())) {
            roles.clear();
        } else {
            roles.remove(Role.NO_ACCESS.text());
        }
        roles.put(role, propagate);
    }

    /**
     * A copy with one entry added or removed ({@code PUT /access/acl} semantics).
     *
     * @param path      ACL path ({@link AclPaths#check})
     * @param authid    the user or token
     * @param role      the role
     * @param propagate whether it applies below {@code path}
     * @param delete    remove the role instead (no error if absent)
     * @throws IllegalArgumentException on an invalid path
     */
    public AclConfig update(String path, Authid authid, Role role, boolean propagate, boolean delete) {
        String p = AclPaths.check(path);
        AclConfig copy = copy();
        if (delete) {
            Map<String, Map<String, Boolean>> node = copy.nodes.get(p);
            if (node != null && node.containsKey(authid.toString())) {
                Map<String, Boolean> roles = node.get(authid.toString());
                roles.remove(role.text());
                if (roles.isEmpty()) {
                    node.remove(authid.toString());
                }
                if (node.isEmpty()) {
                    copy.nodes.remove(p);
                }
            }
        } else {
            copy.insert(p, authid.toString(), role.text(), propagate);
        }
        return copy;
    }

    /** A copy without any entry of {@code ugid} (e.g. when a user or token is removed). */
    public AclConfig withoutUgid(String ugid) {
        AclConfig copy = copy();
        copy.nodes.values().forEach(n -> n.remove(ugid));
        copy.nodes.values().removeIf(Map::isEmpty);
        return copy;
    }

    private AclConfig copy() {
        Map<String, Map<String, Map<String, Boolean>>> m = new TreeMap<>(PATH_ORDER);
        nodes.forEach((p, n) -> {
            Map<String, Map<String, Boolean>> nn = new TreeMap<>();
            n.forEach((u, r) -> nn.put(u, new TreeMap<>(r)));
            m.put(p, nn);
        });
        return new AclConfig(m);
    }

    /** The roles of {@code ugid} defined at exactly {@code path}: role name to propagate flag (empty if none). */
    public Map<String, Boolean> rolesAt(String path, String ugid) {
        Map<String, Map<String, Boolean>> n = nodes.get(path);
        Map<String, Boolean> r = n == null ? null : n.get(ugid);
        return r == null ? Map.of() : Collections.unmodifiableMap(r);
    }

    /** One ACL entry: a role of a user or token at a path. */
    public record Entry(String path, String ugid, String role, boolean propagate) {}

    /** Every entry: paths in file order, then user/token and role in name order. */
    public List<Entry> entries() {
        List<Entry> out = new java.util.ArrayList<>();
        nodes.forEach((path, node) -> node.forEach((ugid, roles) ->
                roles.forEach((role, propagate) -> out.add(new Entry(path, ugid, role, propagate)))));
        return out;
    }

    /** Every path with at least one entry, in file order. */
    public List<String> paths() {
        return List.copyOf(nodes.keySet());
    }

    /** The file text (PBS layout, see the class comment). */
    public String write() {
        StringBuilder sb = new StringBuilder();
        nodes.forEach((path, node) -> {
            for (boolean propagate : new boolean[] {false, true}) {
                Map<String, TreeSet<String>> ugidsByRole = new TreeMap<>();
                node.forEach((ugid, roles) -> {
                    if (ugid.equals(Authid.ROOT.toString())) {
                        return;
                    }
                    roles.forEach((role, p) -> {
                        if (p == propagate) {
                            ugidsByRole.computeIfAbsent(role, k -> new TreeSet<>()).add(ugid);
                        }
                    });
                });
                Map<String, TreeSet<String>> rolesByUgids = new TreeMap<>();
                ugidsByRole.forEach((role, ugids) ->
                        rolesByUgids.computeIfAbsent(String.join(",", ugids), k -> new TreeSet<>()).add(role));
                rolesByUgids.forEach((ugids, roles) -> {
                    String roleList = roles.contains(Role.NO_ACCESS.text()) ? Role.NO_ACCESS.text() : String.join(",", roles);
                    sb.append("acl:").append(propagate ? '1' : '0').append(':').append(path).append(':')
                            .append(ugids).append(':').append(roleList).append('\n');
                });
            }
        });
        return sb.toString();
    }

    /**
     * The roles PBS gives {@code authid} on {@code path} (role name to propagate flag), before
     * the superuser and token rules: walking from {@code /} down to the path, a node that has
     * roles for the auth id replaces what was found above; above the target only propagating
     * roles count; {@code NoAccess} wins over every other role at its node. Group entries are
     * not matched (no user groups in jpbs).
     */
    public Map<String, Boolean> roles(Authid authid, List<String> path) {
        String ugid = authid.toString();
        Map<String, Boolean> result = extract(nodes.get("/"), ugid, path.isEmpty());
        StringBuilder p = new StringBuilder();
        for (int i = 0; i < path.size(); i++) {
            p.append('/').append(path.get(i));
            Map<String, Boolean> found = extract(nodes.get(p.toString()), ugid, i == path.size() - 1);
            if (!found.isEmpty()) {
                result = found;
            }
        }
        return result;
    }

    private static Map<String, Boolean> extract(Map<String, Map<String, Boolean>> node, String ugid, boolean all) {
        Map<String, Boolean> roles = node == null ? null : node.get(ugid);
        if (roles == null) {
            return Map.of();
        }
        Map<String, Boolean> out = new LinkedHashMap<>();
        for (Map.Entry<String, Boolean> e : roles.entrySet()) {
            if (e.getValue() || all) {
                if (e.getKey().equals(Role.NO_ACCESS.text())) {
                    return Map.of(e.getKey(), false);
                }
                out.put(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    /** Paths at or below {@code path} where {@code authid} has an entry. */
    public List<List<String>> pathsWithEntriesBelow(Authid authid, List<String> path) {
        List<List<String>> out = new ArrayList<>();
        String ugid = authid.toString();
        nodes.forEach((p, node) -> {
            List<String> comps = AclPaths.components(p);
            if (node.containsKey(ugid) && comps.size() >= path.size() && comps.subList(0, path.size()).equals(path)) {
                out.add(comps);
            }
        });
        return out;
    }

    @Override
    public String toString() {
        return "AclConfig" + Arrays.toString(nodes.keySet().toArray());
    }
}
