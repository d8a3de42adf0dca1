package org.jpbs.datastore.jobs;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.calendar.CalendarEvent;
import org.jpbs.core.units.ByteSize;
import org.jpbs.datastore.config.DatastoreConfig;
import org.jpbs.datastore.config.KeepOptions;
import org.jpbs.datastore.config.PropertyString;

/**
 * The kinds of configured jobs and remotes: their file, section type, lock file, job-state type
 * and the keys each section may carry, with PBS's value checks ({@code docs/jobs.md#configuration-files}).
 */
public enum JobKind {
    /** {@code prune.cfg}, sections {@code prune: <id>}. */
    PRUNE("prune.cfg", "prune", ".prune.lck", "prunejob", pruneKeys()),
    /** {@code verification.cfg}, sections {@code verification: <id>}. */
    VERIFY("verification.cfg", "verification", ".verify.lck", "verificationjob", verifyKeys()),
    /** {@code sync.cfg}, sections {@code sync: <id>} (pull and push). */
    SYNC("sync.cfg", "sync", ".sync.lck", "syncjob", syncKeys()),
    /** {@code remote.cfg}, sections {@code remote: <name>}. */
    REMOTE("remote.cfg", "remote", ".remote.lck", null, remoteKeys());

    /** A value check: throws IllegalArgumentException with a message naming the key. */
    @FunctionalInterface
    interface Check {
        void check(String key, String value);
    }

    private static final Pattern DNS_NAME = Pattern.compile(
            "[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?(\\.[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?)*");
    private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]*");
    private static final Pattern FINGERPRINT = Pattern.compile("([0-9A-Fa-f]{2}:){31}[0-9A-Fa-f]{2}");
    private static final Pattern AUTH_ID = Pattern.compile("[^\\s:/@]+@[A-Za-z0-9_][A-Za-z0-9._-]*(![A-Za-z0-9_][A-Za-z0-9._-]*)?");

    private final String file;
    private final String sectionType;
    private final String lockFile;
    private final String stateType;
    private final Map<String, Check> keys;

    JobKind(String file, String sectionType, String lockFile, String stateType, Map<String, Check> keys) {
        this.file = file;
        this.sectionType = sectionType;
        this.lockFile = lockFile;
        this.stateType = stateType;
        this.keys = keys;
    }

    /** The file name in the config directory, e.g. {@code prune.cfg}. */
    public String file() {
        return file;
    }

    /** The section type, e.g. {@code prune}. */
    public String sectionType() {
        return sectionType;
    }

    /** The lock file name in the config directory. */
    public String lockFile() {
        return lockFile;
    }

    /** The job type of state files and worker ids ({@code prunejob}, ...); null for remotes. */
    public String stateType() {
        return stateType;
    }

    /** The property naming a section in PBS's API answers and parameters: {@code name} for remotes, else {@code id}. */
    public String idProperty() {
        return this == REMOTE ? "name" : "id";
    }

    /** The keys a section may have, in PBS's order. */
    public Set<String> keys() {
        return keys.keySet();
    }

    /**
     * The array properties of a section: PBS writes one line per item; {@link JobConfig} keeps
     * their items joined with {@code '\n'} ({@link JobConfig#values}).
     */
    public Set<String> listKeys() {
        return this == SYNC ? Set.of("group-filter", "associated-key") : Set.of();
    }

    /** The keys a section must have. */
    public List<String> requiredKeys() {
        return switch (this) {
            case PRUNE, VERIFY -> List.of("store", "schedule");
            case SYNC -> List.of("store", "remote-store");
            case REMOTE -> List.of("host", "auth-id", "password");
        };
    }

    /**
     * Checks a job id or remote name: a safe id of 3..32 characters.
     *
     * @throws IllegalArgumentException naming the id
     */
    public String checkId(String id) {
        if (id == null || id.length() < 3 || id.length() > 32 || !SAFE_ID.matcher(id).matches()) {
            throw new IllegalArgumentException((this == REMOTE ? "remote name" : "job id") + " '" + id
                    + "' is not valid (3..32 characters: letters, digits, '_', '.', '-'; not starting with '.' or '-')");
        }
        return id;
    }

    /**
     * Checks one property (each item of an array property, see {@link #listKeys}).
     *
     * @throws JobValueException        {@code "<key>: <what is wrong>"}
     * @throws IllegalArgumentException for an unknown key
     */
    public void checkValue(String key, String value) {
        Check c = keys.get(key);
        if (c == null) {
            throw new IllegalArgumentException("unknown property '" + key + "' for a " + sectionType + " section");
        }
        if (value.indexOf('\r') >= 0 || (value.indexOf('\n') >= 0 && !listKeys().contains(key))) {
            throw new JobValueException(key, "must not contain a line break", null);
        }
        for (String item : value.split("\n", -1)) { // the items of an array property
            if (item.isBlank() && listKeys().contains(key)) {
                throw new JobValueException(key, "empty item", null);
            }
            try {
                c.check(key, item);
            } catch (JobValueException e) {
                throw e;
            } catch (IllegalArgumentException e) { // the checks name the key first: keep it once
                String m = String.valueOf(e.getMessage());
                throw new JobValueException(key, m.startsWith(key + ": ") ? m.substring(key.length() + 2) : m, e);
            }
        }
    }

    private static Map<String, Check> common() {
        Map<String, Check> m = new LinkedHashMap<>();
        m.put("comment", (k, v) -> { });
        m.put("disable", JobKind::bool);
        m.put("schedule", JobKind::schedule);
        m.put("store", JobKind::datastoreName);
        m.put("ns", JobKind::namespace);
        m.put("max-depth", (k, v) -> PropertyString.parseInt(k, v, 0, BackupNamespace.MAX_DEPTH));
        return m;
    }

    private static Map<String, Check> pruneKeys() {
        Map<String, Check> m = common();
        for (String k : KeepOptions.KEYS) {
            m.put(k, (key, v) -> PropertyString.parseInt(key, v, 1, Integer.MAX_VALUE));
        }
        return m;
    }

    private static Map<String, Check> verifyKeys() {
        Map<String, Check> m = common();
        m.remove("disable");
        m.put("ignore-verified", JobKind::bool);
        m.put("outdated-after", (k, v) -> PropertyString.parseInt(k, v, 0, Integer.MAX_VALUE));
        // PBS 4: threads of a verify job; kept and written back, jpbs verifies with its own thread budget
        m.put("read-threads", (k, v) -> PropertyString.parseInt(k, v, 1, Integer.MAX_VALUE));
        m.put("verify-threads", (k, v) -> PropertyString.parseInt(k, v, 1, Integer.MAX_VALUE));
        return m;
    }

    private static Map<String, Check> syncKeys() {
        Map<String, Check> m = common();
        m.remove("disable");
        m.put("remote", (k, v) -> REMOTE.checkId(v));
        m.put("remote-store", JobKind::datastoreName);
        m.put("remote-ns", JobKind::namespace);
        m.put("owner", JobKind::authId);
        m.put("remove-vanished", JobKind::bool);
        m.put("group-filter", JobKind::groupFilter);
        m.put("transfer-last", (k, v) -> PropertyString.parseInt(k, v, 1, Integer.MAX_VALUE));
        m.put("encrypted-only", JobKind::bool);
        m.put("verified-only", JobKind::bool);
        m.put("resync-corrupt", JobKind::bool);
        m.put("run-on-mount", JobKind::bool);
        for (String k : List.of("rate-in", "burst-in", "rate-out", "burst-out")) {
            m.put(k, JobKind::byteSize);
        }
        m.put("sync-direction", (k, v) -> {
            if (!v.equals("pull") && !v.equals("push")) {
                throw new IllegalArgumentException(k + ": '" + v + "' is not pull or push");
            }
        });
        // newer PBS: the encryption keys of a sync job (kept and written back; jpbs does not act on them)
        m.put("active-encryption-key", JobKind::keyId);
        m.put("associated-key", JobKind::keyId);
        return m;
    }

    private static Map<String, Check> remoteKeys() {
        Map<String, Check> m = new LinkedHashMap<>();
        m.put("comment", (k, v) -> { });
        m.put("host", JobKind::host);
        m.put("port", (k, v) -> PropertyString.parseInt(k, v, 1, 65535));
        m.put("auth-id", JobKind::authId);
        m.put("password", (k, v) -> { });
        m.put("fingerprint", (k, v) -> {
            if (!FINGERPRINT.matcher(v).matches()) {
                throw new IllegalArgumentException(k + ": '" + v + "' is not a SHA-256 fingerprint (32 hex bytes separated by ':')");
            }
        });
        m.put("use-node-proxy", JobKind::bool); // PBS 4: kept and written back; jpbs connects directly
        return m;
    }

    /** A key id: one word without spaces (its exact form in PBS is not checked here). */
    private static void keyId(String k, String v) {
        if (v.isEmpty() || v.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
            throw new IllegalArgumentException(k + ": '" + v + "' is not a key id (no spaces)");
        }
    }

    static void bool(String k, String v) {
        PropertyString.parseBool(k, v);
    }

    private static void schedule(String k, String v) {
        try {
            CalendarEvent.parse(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(k + ": " + e.getMessage(), e);
        }
    }

    /** PBS's DNS_NAME_OR_IP_SCHEMA: a DNS name, an IPv4 address or an IPv6 address without brackets. */
    private static void host(String k, String v) {
        boolean ok = DNS_NAME.matcher(v).matches() && v.length() <= 255;
        if (!ok && v.indexOf(':') >= 0 && v.matches("[0-9a-fA-F:.]+")) {
            try {
                ok = java.net.InetAddress.ofLiteral(v) != null; // a literal: never a name lookup
            } catch (IllegalArgumentException e) {
                ok = false;
            }
        }
        if (!ok) {
            throw new IllegalArgumentException(k + ": '" + v + "' is not a host name or address"
                    + " (a DNS name, an IPv4 address, or an IPv6 address without brackets)");
        }
    }

    /** Every check's message starts with the key ({@code remote-store: invalid datastore name ...}). */
    private static void datastoreName(String k, String v) {
        try {
            DatastoreConfig.checkName(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(k + ": " + e.getMessage(), e);
        }
    }

    private static void namespace(String k, String v) {
        try {
            BackupNamespace.parse(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(k + ": " + e.getMessage(), e);
        }
    }

    private static void authId(String k, String v) {
        if (!AUTH_ID.matcher(v).matches() || v.length() > 64) {
            throw new IllegalArgumentException(k + ": '" + v + "' is not a user or token id (user@realm[!token])");
        }
    }

    private static void byteSize(String k, String v) {
        try {
            ByteSize.parse(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(k + ": " + e.getMessage(), e);
        }
    }

    private static void groupFilter(String k, String v) {
        String f = v.startsWith("exclude:") ? v.substring(8) : v.startsWith("include:") ? v.substring(8) : v;
        if (f.startsWith("type:")) {
            String t = f.substring(5);
            if (!t.equals("vm") && !t.equals("ct") && !t.equals("host")) {
                throw new IllegalArgumentException(k + ": '" + v + "': unknown backup type '" + t + "'");
            }
        } else if (f.startsWith("regex:")) {
            try {
                Pattern.compile(f.substring(6));
            } catch (java.util.regex.PatternSyntaxException e) {
                throw new IllegalArgumentException(k + ": '" + v + "': bad regular expression", e);
            }
        } else if (!f.startsWith("group:")) {
            throw new IllegalArgumentException(k + ": '" + v + "' is not [exclude:|include:]type:|group:|regex:...");
        }
    }
}
