package org.jpbs.server.http;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Keeps the server's filesystem paths out of error answers (issue 12 item 10): applied by
 * {@link ErrorMapper} to every error message of the REST API and of the backup and reader
 * protocols. Two rules, in this order:
 * <ol>
 * <li>a path under a registered root (a datastore's base directory, the config directory) is
 *     shown relative to it: {@code /srv/ds/host/a/2024-…Z/x.blob: Is a directory} becomes
 *     {@code host/a/2024-…Z/x.blob: Is a directory}; the root itself becomes its label
 *     ({@code <datastore>}, {@code <config>});</li>
 * <li>any other absolute path whose first component is an entry of {@code /} on this machine
 *     (so every existing absolute path) is cut to its last component:
 *     {@code /var/tmp/x/y.tmp_ab12: No space left on device} becomes {@code y.tmp_ab12: ...}.</li>
 * </ol>
 * A path token starts with {@code '/'} at the start of the message or after a space, quote,
 * bracket, {@code '='} or {@code ','}, and ends before white space, a quote, a closing bracket,
 * {@code ','} or {@code ';'} (a trailing {@code ':'} or {@code '.'} stays outside). URL paths
 * ({@code /api2/...}) and ACL paths ({@code /datastore/<store>}) only occur in 401, 403 and 404
 * answers, which {@link ErrorMapper} leaves alone; elsewhere they would be cut too if a top-level
 * directory of that name existed. Thread-safe.
 */
public final class HiddenPaths {
    /** Label of the datastore base directories. */
    public static final String DATASTORE = "<datastore>";
    /** Label of the config directory. */
    public static final String CONFIG = "<config>";

    private static final Map<String, String> ROOTS = new ConcurrentHashMap<>();
    private static volatile List<String> sortedRoots = List.of();
    private static final Set<String> TOP_LEVEL = topLevelNames();

    private HiddenPaths() {}

    /**
     * Registers a directory whose paths are shown relative to it, and that itself is shown as
     * {@code label} ({@link #DATASTORE}, {@link #CONFIG}); no-op for {@code /}.
     */
    public static void addRoot(Path dir, String label) {
        String r = dir.toAbsolutePath().normalize().toString();
        if (r.length() > 1 && ROOTS.putIfAbsent(r, label) == null) {
            List<String> l = new ArrayList<>(ROOTS.keySet());
            l.sort(Comparator.comparingInt(String::length).reversed());
            sortedRoots = List.copyOf(l);
        }
    }

    /** {@code message} without server paths (the same string if it has none). */
    public static String hide(String message) {
        if (message == null || message.indexOf('/') < 0) {
            return message;
        }
        StringBuilder out = new StringBuilder(message.length());
        int i = 0;
        int n = message.length();
        while (i < n) {
            char c = message.charAt(i);
            if (c == '/' && (i == 0 || startsToken(message.charAt(i - 1)))) {
                int end = i;
                while (end < n && !endsToken(message.charAt(end))) {
                    end++;
                }
                while (end > i + 1 && (message.charAt(end - 1) == ':' || message.charAt(end - 1) == '.')) {
                    end--;
                }
                out.append(render(message.substring(i, end)));
                i = end;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private static String render(String path) {
        for (String root : sortedRoots) {
            if (path.equals(root)) {
                return ROOTS.get(root);
            }
            if (path.startsWith(root) && path.charAt(root.length()) == '/') {
                String rel = path.substring(root.length() + 1);
                return rel.isEmpty() ? ROOTS.get(root) : rel;
            }
        }
        int second = path.indexOf('/', 1);
        String first = second < 0 ? path.substring(1) : path.substring(1, second);
        if (first.isEmpty() || !TOP_LEVEL.contains(first)) {
            return path;
        }
        String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        return trimmed.substring(trimmed.lastIndexOf('/') + 1);
    }

    private static boolean startsToken(char c) {
        return Character.isWhitespace(c) || c == '\'' || c == '"' || c == '(' || c == '[' || c == '{' || c == '='
                || c == ',' || c == '`';
    }

    private static boolean endsToken(char c) {
        return Character.isWhitespace(c) || c == '\'' || c == '"' || c == ')' || c == ']' || c == '}' || c == ','
                || c == ';' || c == '`';
    }

    private static Set<String> topLevelNames() {
        Set<String> names = ConcurrentHashMap.newKeySet();
        try (Stream<Path> s = Files.list(Path.of("/"))) {
            s.forEach(p -> names.add(p.getFileName().toString()));
        } catch (IOException | RuntimeException e) {
            // no listing: the registered roots still apply
        }
        return names;
    }
}
