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
     * @throws ParameterException    a bad, missing or foreign property (PBS's schema texts)
     * @throws EntryExistsException  {@code "Cannot create '<name>', an entity with the same name already exists"}
     * @throws NoSuchEntryException  a matcher's {@code target} that does not exist
     */
    public static NotificationConfig create(NotificationConfig cfg, String type, String name,
                                            Map<String, List<String>> params) {
        checkType(type);
        if (!NAME.matcher(name).matches()) {
            throw ParameterException.schema("name", "value does not match the regex pattern");
        }
        if (cfg.target(name).isPresent() || cfg.matcher(name).isPresent()) {
            throw new EntryExistsException("Cannot create '" + name + "', an entity with the same name already exists");
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
            if (!KEYS.get(type).contains(k) || REQUIRED.get(type).contains(k)) {
                throw ParameterException.schema("delete", "value '" + k + "' is not defined in the enumeration.");
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
     * A copy without the entry. As proxmox-notify, a built-in entry is never removed, only reset
     * to its default: unchanged, the copy is the same; changed ({@code modified-builtin}), its
     * section goes, whatever matcher names it.
     *
     * @throws NoSuchEntryException     if it does not exist
     * @throws IllegalArgumentException (as PBS) for a user-created target a matcher still names:
     *                                  {@code "cannot delete '<name>', referenced by: <matchers>"}
     */
    public static NotificationConfig remove(NotificationConfig cfg, String type, String name) {
        NotificationConfig.Entry e = existing(cfg, type, name);
        if (e.origin().equals("builtin")) {
            return cfg; // nothing to reset
        }
        if (!type.equals("matcher") && e.origin().equals("user-created")) {
            List<String> users = cfg.matchers().stream().filter(m -> m.values("target").contains(name))
                    .map(NotificationConfig.Entry::name).toList();
            if (!users.isEmpty()) {
                throw new IllegalArgumentException("cannot delete '" + name + "', referenced by: " + String.join(", ", users));
            }
        }
        return cfg.without(type, name);
    }

    /** The entry of that type and name. */
    public static NotificationConfig.Entry existing(NotificationConfig cfg, String type, String name) {
        checkType(type);
        var e = type.equals("matcher") ? cfg.matcher(name) : cfg.target(name).filter(t -> t.type().equals(type));
        return e.orElseThrow(() -> new NoSuchEntryException((type.equals("matcher") ? "matcher '" : "endpoint '")
                + name + "' not found"));
    }

    /** Thrown for a missing target or matcher (the API answers 404, PBS's text). */
    public static final class NoSuchEntryException extends IllegalArgumentException {
        NoSuchEntryException(String message) {
            super(message);
        }
    }

    /** Thrown when the name of a new entry is taken (the API answers 400, PBS's text). */
    public static final class EntryExistsException extends IllegalArgumentException {
        EntryExistsException(String message) {
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
                throw ParameterException.schema(k, "schema does not allow additional properties.");
            }
            List<String> vs = p.getValue();
            if (!NotificationConfig.ARRAYS.contains(k) && vs.size() > 1) {
                throw ParameterException.schema(k, "duplicate parameter.");
            }
            check(type, k, vs);
            List<String> values = k.equals("secret") ? withOldValues(vs, oldSecrets) : vs;
            (SECRETS.contains(k) ? priv : pub).put(k, values);
        }
        for (String r : REQUIRED.get(type)) {
            if (!params.containsKey(r)) {
                throw ParameterException.schema(r, "parameter is missing and it is not optional.");
            }
        }
        if (type.equals("matcher")) {
            MatchRules.of(new NotificationConfig.Entry(type, name, new org.jpbs.datastore.config.SectionConfigText.Section(
                    type, name, Map.of(), pub), new org.jpbs.datastore.config.SectionConfigText.Section(type, name, Map.of()),
                    "user-created"), java.time.ZoneId.systemDefault());
            for (String t : pub.getOrDefault("target", List.of())) {
                if (cfg.target(t).isEmpty()) {
                    throw new NoSuchEntryException("endpoint '" + t + "' does not exist"); // PBS: 404
                }
            }
        }
        return cfg.with(type, name, pub, priv);
    }

    private static List<String> withOldValues(List<String> secrets, Map<String, String> old) {
        List<String> out = new ArrayList<>();
        java.util.Set<String> names = new java.util.HashSet<>();
        for (String s : secrets) {
            Map<String, String> kv = HttpSender.keyValue(s);
            String v = kv.containsKey("value") ? kv.get("value") : old.get(kv.get("name"));
            if (v == null) {
                throw ParameterException.check("secret", "secret '" + kv.get("name") + "' not known");
            }
            if (!names.add(kv.get("name"))) {
                throw ParameterException.check("secret", "secret '" + kv.get("name") + "' defined multiple times");
            }
            out.add("name=" + kv.get("name") + ",value=" + v);
        }
        return out;
    }

    /** PBS's checks of one property's values: its schema's texts, or those of its own checks (headers, secrets). */
    private static void check(String type, String k, List<String> vs) {
        for (String v : vs) {
            if (k.equals("header") || k.equals("secret")) {
                Map<String, String> kv = HttpSender.keyValue(v);
                if (k.equals("header") && !kv.containsKey("value")) {
                    throw ParameterException.check(k, "header '" + kv.get("name") + "' has empty value");
                }
                if (kv.containsKey("value") && base64(kv.get("value")) != null) {
                    throw ParameterException.check(k, k + " '" + kv.get("name") + "' does not have valid base64 encoded data");
                }
                continue;
            }
            String bad = switch (k) {
                case "mode" -> type.equals("smtp") ? oneOf(v, "insecure", "starttls", "tls") : oneOf(v, "all", "any");
                case "method" -> oneOf(v, "post", "put", "get");
                case "port" -> port(v);
                case "disable", "invert-match" -> oneOf(v.toLowerCase(java.util.Locale.ROOT), "0", "1", "true", "false",
                        "on", "off", "yes", "no") == null ? null : "Unable to parse boolean option.";
                case "url", "server" -> v.matches("https?://\\S+") || (k.equals("server") && !type.equals("gotify")
                        && v.matches("[A-Za-z0-9.:\\[\\]-]+")) ? null : "value does not match the regex pattern";
                case "body" -> base64(v);
                default -> v.indexOf('\n') >= 0 ? "must not contain a line break" : null;
            };
            if (bad != null) {
                throw ParameterException.schema(k, bad);
            }
        }
    }

    private static String port(String v) {
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            return "invalid digit found in string";
        }
        return n < 0 ? "value must have a minimum value of 0 (got " + n + ")"
                : n > 65535 ? "value must have a maximum value of 65535 (got " + n + ")" : null;
    }

    private static String oneOf(String v, String... allowed) {
        return List.of(allowed).contains(v) ? null : "value '" + v + "' is not defined in the enumeration.";
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
