package org.jpbs.server.notify;

import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Creating, updating, removing and showing notification targets and matchers
 * ({@code docs/notifications.md#api-and-commands}), shared by the API
 * ({@code config/notifications/...}) and {@code jpbs notification}: which properties each
 * section type has, which are required, which are secrets (kept in
 * {@code notifications-priv.cfg} and never shown: SMTP {@code password}, gotify {@code token},
 * webhook {@code secret} values), and PBS's error texts. Stateless.
 */
public final class NotificationEdits {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{1,31}");
    private static final Map<String, List<String>> KEYS = Map.of(
            "sendmail", List.of("mailto", "mailto-user", "from-address", "author", "comment", "disable"),
            "smtp", List.of("server", "port", "mode", "username", "password", "mailto", "mailto-user", "from-address",
                    "author", "comment", "disable"),
            "gotify", List.of("server", "token", "comment", "disable"),
            "webhook", List.of("url", "method", "header", "body", "secret", "comment", "disable"),
            "matcher", List.of("match-field", "match-severity", "match-calendar", "mode", "invert-match", "target",
                    "comment", "disable"));
    private static final Map<String, List<String>> REQUIRED = Map.of("sendmail", List.of(), "smtp",
            List.of("server", "from-address"), "gotify", List.of("server", "token"), "webhook", List.of("url", "method"),
            "matcher", List.of());
    private static final Set<String> SECRETS = Set.of("password", "token", "secret");

    private NotificationEdits() {}

    /** The section types: the target types and {@code matcher}. */
    public static Set<String> types() {
        return KEYS.keySet();
    }

    /** The properties of a section type, in a fixed order (for the API documentation). */
    public static List<String> keys(String type) {
        checkType(type);
        return KEYS.get(type);
    }

    /** The properties a new entry of {@code type} must have. */
    public static List<String> required(String type) {
        checkType(type);
        return REQUIRED.get(type);
    }

    /** True if {@code key} may have several values (one line per value in the file). */
    public static boolean repeatable(String key) {
        return NotificationConfig.ARRAYS.contains(key);
    }

    /** True if {@code key} is a secret (kept in {@code notifications-priv.cfg}, never shown). */
    public static boolean secret(String key) {
        return SECRETS.contains(key);
    }

    /**
     * A copy of {@code cfg} with a new target or matcher.
     *
     * @param params property to values (arrays: several values)
     * @throws IllegalArgumentException {@code "parameter '<key>': ..."} or
     *                                  {@code "<type> '<name>' already exists"} and the like
     */
    public static NotificationConfig create(NotificationConfig cfg, String type, String name,
                                            Map<String, List<String>> params) {
        checkType(type);
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("parameter 'name': value does not match the regex pattern");
        }
        if (cfg.target(name).isPresent() || cfg.matcher(name).isPresent()) {
            throw new IllegalArgumentException("Cannot create '" + name + "', an entity with the same name already exists");
        }
        return write(cfg, type, name, params, Map.of());
    }

    /**
     * A copy with an existing entry changed: {@code params} replace those properties,
     * {@code delete} removes properties; webhook secrets given without a value keep their old one.
     *
     * @throws IllegalArgumentException if it does not exist or a value is invalid
     */
    public static NotificationConfig update(NotificationConfig cfg, String type, String name,
                                            Map<String, List<String>> params, List<String> delete) {
        NotificationConfig.Entry e = existing(cfg, type, name);
        Map<String, List<String>> merged = new LinkedHashMap<>(e.section().lists());
        e.secrets().lists().forEach(merged::put);
        delete.forEach(k -> {
            if (!KEYS.get(type).contains(k)) {
                throw new IllegalArgumentException("parameter 'delete': unknown property '" + k + "'");
            }
            merged.remove(k);
        });
        merged.putAll(params);
        Map<String, String> oldSecrets = new LinkedHashMap<>();
        for (String s : e.secrets().values("secret")) {
            Map<String, String> kv = HttpSender.keyValue(s);
            oldSecrets.put(kv.get("name"), kv.get("value"));
        }
        return write(cfg.without(type, name), type, name, merged, oldSecrets);
    }

    /**
     * A copy without the entry.
     *
     * @throws IllegalArgumentException if it does not exist or is built in and unchanged
     */
    public static NotificationConfig remove(NotificationConfig cfg, String type, String name) {
        NotificationConfig.Entry e = existing(cfg, type, name);
        if (e.origin().equals("builtin")) {
            throw new IllegalArgumentException("cannot delete built-in " + (type.equals("matcher") ? "matcher" : "target")
                    + " '" + name + "'");
        }
        return cfg.without(type, name);
    }

    /** The entry of that type and name. */
    public static NotificationConfig.Entry existing(NotificationConfig cfg, String type, String name) {
        checkType(type);
        var e = type.equals("matcher") ? cfg.matcher(name) : cfg.target(name).filter(t -> t.type().equals(type));
        return e.orElseThrow(() -> new NoSuchEntryException(type.equals("matcher") ? "matcher '" + name + "' not found"
                : "endpoint '" + name + "' does not exist"));
    }

    /** Thrown for a missing target or matcher (the API answers 404). */
    public static final class NoSuchEntryException extends IllegalArgumentException {
        NoSuchEntryException(String message) {
            super(message);
        }
    }

    /** The properties shown for an entry: public ones (arrays as lists), webhook secret names only, {@code name}, {@code origin}. */
    public static Map<String, Object> view(NotificationConfig.Entry e) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", e.name());
        e.section().lists().forEach((k, v) -> out.put(k, NotificationConfig.ARRAYS.contains(k) ? v : v.getFirst()));
        if (!e.secrets().values("secret").isEmpty()) {
            List<String> names = new ArrayList<>();
            e.secrets().values("secret").forEach(s -> names.add("name=" + HttpSender.keyValue(s).get("name")));
            out.put("secret", names);
        }
        out.put("origin", e.origin());
        return out;
    }

    private static void checkType(String type) {
        if (!KEYS.containsKey(type)) {
            throw new IllegalArgumentException("unknown type '" + type + "' (expected " + String.join(", ", types()) + ")");
        }
    }

    private static NotificationConfig write(NotificationConfig cfg, String type, String name,
                                            Map<String, List<String>> params, Map<String, String> oldSecrets) {
        Map<String, List<String>> pub = new LinkedHashMap<>();
        Map<String, List<String>> priv = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> p : params.entrySet()) {
            String k = p.getKey();
            if (!KEYS.get(type).contains(k)) {
                throw new IllegalArgumentException("parameter '" + k + "': schema does not allow additional properties");
            }
            List<String> vs = p.getValue();
            if (!NotificationConfig.ARRAYS.contains(k) && vs.size() > 1) {
                throw new IllegalArgumentException("parameter '" + k + "': expected a single value");
            }
            check(type, k, vs, oldSecrets);
            List<String> values = k.equals("secret") ? withOldValues(vs, oldSecrets) : vs;
            (SECRETS.contains(k) ? priv : pub).put(k, values);
        }
        for (String r : REQUIRED.get(type)) {
            if (!params.containsKey(r)) {
                throw new IllegalArgumentException("parameter '" + r + "': parameter is missing and it is not optional");
            }
        }
        if (type.equals("matcher")) {
            MatchRules.of(new NotificationConfig.Entry(type, name, new org.jpbs.datastore.config.SectionConfigText.Section(
                    type, name, Map.of(), pub), new org.jpbs.datastore.config.SectionConfigText.Section(type, name, Map.of()),
                    "user-created"), java.time.ZoneId.systemDefault());
            for (String t : pub.getOrDefault("target", List.of())) {
                if (cfg.target(t).isEmpty()) {
                    throw new IllegalArgumentException("parameter 'target': target '" + t + "' does not exist");
                }
            }
        }
        return cfg.with(type, name, pub, priv);
    }

    private static List<String> withOldValues(List<String> secrets, Map<String, String> old) {
        List<String> out = new ArrayList<>();
        for (String s : secrets) {
            Map<String, String> kv = HttpSender.keyValue(s);
            String v = kv.containsKey("value") ? kv.get("value") : old.get(kv.get("name"));
            if (v == null) {
                throw new IllegalArgumentException("parameter 'secret': no value for new secret '" + kv.get("name") + "'");
            }
            out.add("name=" + kv.get("name") + ",value=" + v);
        }
        return out;
    }

    private static void check(String type, String k, List<String> vs, Map<String, String> oldSecrets) {
        for (String v : vs) {
            String bad = switch (k) {
                case "mode" -> type.equals("smtp") ? oneOf(v, "insecure", "starttls", "tls") : oneOf(v, "all", "any");
                case "method" -> oneOf(v, "post", "put", "get");
                case "port" -> v.matches("\\d{1,5}") && Integer.parseInt(v) <= 65535 ? null : "invalid port";
                case "disable", "invert-match" -> oneOf(v, "0", "1", "true", "false");
                case "url", "server" -> v.matches("https?://\\S+") || (k.equals("server") && !type.equals("gotify")
                        && v.matches("[A-Za-z0-9.:\\[\\]-]+")) ? null : "invalid " + k;
                case "body" -> base64(v);
                case "header", "secret" -> {
                    Map<String, String> kv = HttpSender.keyValue(v);
                    yield kv.containsKey("value") ? base64(kv.get("value")) : k.equals("header") ? "header without value" : null;
                }
                default -> v.indexOf('\n') >= 0 ? "must not contain a line break" : null;
            };
            if (bad != null) {
                throw new IllegalArgumentException("parameter '" + k + "': " + bad);
            }
        }
    }

    private static String oneOf(String v, String... allowed) {
        return List.of(allowed).contains(v) ? null : "value '" + v + "' is not one of " + String.join(", ", allowed);
    }

    private static String base64(String v) {
        try {
            Base64.getDecoder().decode(v);
            return null;
        } catch (IllegalArgumentException e) {
            return "value is not valid base64";
        }
    }
}
