package org.jpbs.server.routing;

import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jpbs.core.api.ArchiveName;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.api.SafeId;
import org.jpbs.server.http.ApiException;

/**
 * Query parameters of the datastore admin calls, validated the way the PBS schema does it
 * ({@code docs/api.md#conventions-as-pbs}, {@code docs/api.md#admindatastorestore}; vectors {@code real-pbs/api/err-bad-param.*}): every
 * failure is 400 {@code "parameter verification failed - '<name>': <reason>"} with the PBS
 * reasons ({@code "value 'xx' is not defined in the enumeration."}, {@code "value does not match
 * the regex pattern"}, {@code "parameter is missing and it is not optional."},
 * {@code "schema does not allow additional properties."}, ...). {@code _dc} (the ExtJS cache
 * buster) is ignored. Immutable.
 */
public final class ApiParams {
    /**
     * Smallest {@code backup-time}: 1, the same as the backup/reader upgrade accepts ({@code docs/protocol.md#backup-upgrade}), so every snapshot a session can
     * create is reachable through the REST API too.
     */
    public static final long MIN_BACKUP_TIME = 1;

    private final Map<String, List<String>> values;
    /** The parameters of a JSON body, whose values must have their JSON types; null for text values. */
    private final org.jpbs.server.http.Params json;

    private ApiParams(Map<String, List<String>> values) {
        this(values, null);
    }

    private ApiParams(Map<String, List<String>> values, org.jpbs.server.http.Params json) {
        this.values = values;
        this.json = json;
    }

    /**
     * Decodes a query string and rejects parameters outside {@code allowed}.
     *
     * @throws ApiException 400 for an unknown parameter
     */
    public static ApiParams ofQuery(String rawQuery, Set<String> allowed) {
        Map<String, List<String>> m = rawQuery == null || rawQuery.isEmpty() ? Map.of()
                : new QueryStringDecoder(rawQuery, StandardCharsets.UTF_8, false).parameters();
        for (String k : m.keySet()) {
            if (!allowed.contains(k) && !k.equals("_dc")) {
                throw ApiException.badParam(k, "schema does not allow additional properties.");
            }
        }
        return new ApiParams(m);
    }

    /**
     * Parameters of a POST (query plus form body, or a JSON body); rejects names outside
     * {@code allowed}. Values of a JSON body must have their JSON types (integer, boolean,
     * string: {@code "Expected integer value."} ...), as in PBS.
     *
     * @throws ApiException 400 for an unknown parameter
     */
    public static ApiParams of(org.jpbs.server.http.Params params, Set<String> allowed) {
        Map<String, List<String>> m = params.asStrings();
        for (String k : m.keySet()) {
            if (!allowed.contains(k) && !k.equals("_dc")) {
                throw ApiException.badParam(k, "schema does not allow additional properties.");
            }
        }
        return new ApiParams(m, params.typed() ? params : null);
    }

    /** JSON type check of a JSON-body value: {@code kind} is {@code "string"}, {@code "integer"} or {@code "boolean"}. */
    private void checkJsonType(String name, String kind) {
        if (json == null) {
            return;
        }
        json.jsonValue(name).filter(n -> !n.isNull()).ifPresent(n -> {
            boolean ok = switch (kind) {
                case "integer" -> n.isIntegralNumber() && n.canConvertToLong();
                case "boolean" -> n.isBoolean();
                default -> n.isTextual();
            };
            if (!ok) {
                throw ApiException.badParam(name, "Expected " + kind + " value.");
            }
        });
    }

    /** All values of a parameter that may repeat (empty if absent). */
    public List<String> all(String name) {
        List<String> v = values.get(name);
        return v == null ? List.of() : v;
    }

    /** Names of the parameters present. */
    public Set<String> names() {
        return values.keySet();
    }

    /** An optional string; a repeated parameter is an error (in a JSON body: must be a JSON string). */
    public Optional<String> opt(String name) {
        checkJsonType(name, "string");
        return raw(name);
    }

    /** A parameter's value as text whatever its JSON type (for passing parameters on); a repeat is an error. */
    public Optional<String> text(String name) {
        return raw(name);
    }

    private Optional<String> raw(String name) {
        List<String> v = values.get(name);
        if (v == null || v.isEmpty()) {
            return Optional.empty();
        }
        if (v.size() > 1) {
            throw ApiException.badParam(name, "got multiple values.");
        }
        return Optional.of(v.getFirst());
    }

    /** A required string. */
    public String required(String name) {
        return opt(name).orElseThrow(() -> ApiException.badParam(name, "parameter is missing and it is not optional."));
    }

    /** {@code backup-type}: {@code vm}, {@code ct} or {@code host}. */
    public static BackupType backupType(String name, String v) {
        for (BackupType t : BackupType.values()) {
            if (t.text().equals(v)) {
                return t;
            }
        }
        throw ApiException.badParam(name, "value '" + v + "' is not defined in the enumeration.");
    }

    public Optional<BackupType> optBackupType() {
        return opt("backup-type").map(v -> backupType("backup-type", v));
    }

    public BackupType backupType() {
        return backupType("backup-type", required("backup-type"));
    }

    /** {@code backup-id}: a safe id of at most {@link BackupGroupRef#MAX_ID_LENGTH} characters. */
    public static String backupId(String v) {
        checkLength("backup-id", v, BackupGroupRef.MAX_ID_LENGTH);
        if (!SafeId.isValid(v)) {
            throw ApiException.badParam("backup-id", "value does not match the regex pattern");
        }
        return v;
    }

    public Optional<String> optBackupId() {
        return opt("backup-id").map(ApiParams::backupId);
    }

    public String backupId() {
        return backupId(required("backup-id"));
    }

    /** {@code backup-time}: epoch seconds, at least {@link #MIN_BACKUP_TIME}. */
    public long backupTime() {
        checkJsonType("backup-time", "integer");
        String v = raw("backup-time").orElseThrow(
                () -> ApiException.badParam("backup-time", "parameter is missing and it is not optional."));
        return integer("backup-time", v, MIN_BACKUP_TIME, Long.MAX_VALUE);
    }

    /** A namespace parameter ({@code ns}, {@code parent}); absent means the root. */
    public BackupNamespace namespace(String name) {
        Optional<String> v = opt(name);
        if (v.isEmpty()) {
            return BackupNamespace.ROOT;
        }
        String s = v.get();
        checkLength(name, s, BackupNamespace.MAX_LENGTH);
        try {
            return BackupNamespace.parse(s);
        } catch (IllegalArgumentException e) {
            throw ApiException.badParam(name, "value does not match the regex pattern");
        }
    }

    /** {@code file-name}: a safe id of at most {@link ArchiveName#MAX_LENGTH} characters. */
    public String fileName() {
        String v = required("file-name");
        checkLength("file-name", v, ArchiveName.MAX_LENGTH);
        if (!SafeId.isValid(v)) {
            throw ApiException.badParam("file-name", "value does not match the regex pattern");
        }
        return v;
    }

    /**
     * The schema's length check, done before the pattern as in PBS.
     *
     * @throws ApiException 400 {@code "parameter verification failed - '<name>': value may only be <max> characters long"}
     */
    public static void checkLength(String name, String v, int max) {
        if (v.length() > max) {
            throw ApiException.badParam(name, "value may only be " + max + " characters long");
        }
    }

    /** An optional integer in {@code [min, max]}. */
    public Optional<Long> optInteger(String name, long min, long max) {
        checkJsonType(name, "integer");
        return raw(name).map(v -> integer(name, v, min, max));
    }

    private static long integer(String name, String v, long min, long max) {
        long n = org.jpbs.server.http.Params.parseInteger(name, v);
        if (n < min) {
            throw ApiException.badParam(name, "value must have a minimum value of " + min);
        }
        if (n > max) {
            throw ApiException.badParam(name, "value must have a maximum value of " + max);
        }
        return n;
    }

    /** A boolean ({@code 1/true/yes/on}, {@code 0/false/no/off}, any case); {@code dflt} if absent. */
    public boolean bool(String name, boolean dflt) {
        checkJsonType(name, "boolean");
        Optional<String> v = raw(name);
        if (v.isEmpty()) {
            return dflt;
        }
        return parseBool(name, v.get());
    }

    /** A boolean's text ({@code 1/true/yes/on}, {@code 0/false/no/off}, any case); 400 otherwise. */
    public static boolean parseBool(String name, String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "1", "true", "yes", "on" -> true;
            case "0", "false", "no", "off" -> false;
            default -> throw ApiException.badParam(name, "Unable to parse boolean option.");
        };
    }

    /**
     * Validates a {@code {store}} path component (PBS {@code DATASTORE_SCHEMA}: safe id of 3..32 characters).
     *
     * @return the name
     */
    public static String store(String s) {
        if (s.length() < 3) {
            throw ApiException.badParam("store", "value must be at least 3 characters long");
        }
        checkLength("store", s, 32);
        if (!SafeId.isValid(s)) {
            throw ApiException.badParam("store", "value does not match the regex pattern");
        }
        return s;
    }
}
