package org.jpbs.server.api;

import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.api.SafeId;
import org.jpbs.server.http.ApiException;

/**
 * Query parameters of the datastore admin calls, validated the way the PBS schema does it
 * (spec {@code pbs-protocol.md} §4.1, §4.4; vectors {@code real-pbs/api/err-bad-param.*}): every
 * failure is 400 {@code "parameter verification failed - '<name>': <reason>"} with the PBS
 * reasons ({@code "value 'xx' is not defined in the enumeration."}, {@code "value does not match
 * the regex pattern"}, {@code "parameter is missing and it is not optional."},
 * {@code "schema does not allow additional properties."}, ...). {@code _dc} (the ExtJS cache
 * buster) is ignored. Immutable.
 */
final class ApiParams {
    /** PBS {@code BACKUP_TIME_SCHEMA} minimum (2019-01-18). */
    static final long MIN_BACKUP_TIME = 1_547_797_308L;

    private final Map<String, List<String>> values;

    private ApiParams(Map<String, List<String>> values) {
        this.values = values;
    }

    /**
     * Decodes a query string and rejects parameters outside {@code allowed}.
     *
     * @throws ApiException 400 for an unknown parameter
     */
    static ApiParams ofQuery(String rawQuery, Set<String> allowed) {
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
     * Parameters already decoded (e.g. a POST body through {@link org.jpbs.server.http.Params#asStrings()});
     * rejects names outside {@code allowed}.
     *
     * @throws ApiException 400 for an unknown parameter
     */
    static ApiParams of(Map<String, List<String>> m, Set<String> allowed) {
        for (String k : m.keySet()) {
            if (!allowed.contains(k) && !k.equals("_dc")) {
                throw ApiException.badParam(k, "schema does not allow additional properties.");
            }
        }
        return new ApiParams(m);
    }

    /** All values of a parameter that may repeat (empty if absent). */
    List<String> all(String name) {
        List<String> v = values.get(name);
        return v == null ? List.of() : v;
    }

    /** Names of the parameters present. */
    Set<String> names() {
        return values.keySet();
    }

    /** An optional string; a repeated parameter is an error. */
    Optional<String> opt(String name) {
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
    String required(String name) {
        return opt(name).orElseThrow(() -> ApiException.badParam(name, "parameter is missing and it is not optional."));
    }

    /** {@code backup-type}: {@code vm}, {@code ct} or {@code host}. */
    static BackupType backupType(String name, String v) {
        for (BackupType t : BackupType.values()) {
            if (t.text().equals(v)) {
                return t;
            }
        }
        throw ApiException.badParam(name, "value '" + v + "' is not defined in the enumeration.");
    }

    Optional<BackupType> optBackupType() {
        return opt("backup-type").map(v -> backupType("backup-type", v));
    }

    BackupType backupType() {
        return backupType("backup-type", required("backup-type"));
    }

    /** {@code backup-id}: a safe id. */
    static String backupId(String v) {
        if (!SafeId.isValid(v)) {
            throw ApiException.badParam("backup-id", "value does not match the regex pattern");
        }
        return v;
    }

    Optional<String> optBackupId() {
        return opt("backup-id").map(ApiParams::backupId);
    }

    String backupId() {
        return backupId(required("backup-id"));
    }

    /** {@code backup-time}: epoch seconds, at least {@link #MIN_BACKUP_TIME}. */
    long backupTime() {
        return integer("backup-time", required("backup-time"), MIN_BACKUP_TIME, Long.MAX_VALUE);
    }

    /** A namespace parameter ({@code ns}, {@code parent}); absent means the root. */
    BackupNamespace namespace(String name) {
        Optional<String> v = opt(name);
        if (v.isEmpty()) {
            return BackupNamespace.ROOT;
        }
        String s = v.get();
        if (s.length() > BackupNamespace.MAX_LENGTH) {
            throw ApiException.badParam(name, "value may only be " + BackupNamespace.MAX_LENGTH + " characters long");
        }
        try {
            return BackupNamespace.parse(s);
        } catch (IllegalArgumentException e) {
            throw ApiException.badParam(name, "value does not match the regex pattern");
        }
    }

    /** {@code file-name}: a safe id. */
    String fileName() {
        String v = required("file-name");
        if (!SafeId.isValid(v)) {
            throw ApiException.badParam("file-name", "value does not match the regex pattern");
        }
        return v;
    }

    /** An optional integer in {@code [min, max]}. */
    Optional<Long> optInteger(String name, long min, long max) {
        return opt(name).map(v -> integer(name, v, min, max));
    }

    private static long integer(String name, String v, long min, long max) {
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            String reason;
            if (v.isEmpty()) {
                reason = "cannot parse integer from empty string";
            } else if (v.matches("[+-]?[0-9]+")) {
                reason = v.startsWith("-") ? "number too small to fit in target type" : "number too large to fit in target type";
            } else {
                reason = "invalid digit found in string";
            }
            throw ApiException.badParam(name, reason);
        }
        if (n < min) {
            throw ApiException.badParam(name, "value must have a minimum value of " + min);
        }
        if (n > max) {
            throw ApiException.badParam(name, "value must have a maximum value of " + max);
        }
        return n;
    }

    /** A boolean ({@code 1/true/yes/on}, {@code 0/false/no/off}, any case); {@code dflt} if absent. */
    boolean bool(String name, boolean dflt) {
        Optional<String> v = opt(name);
        if (v.isEmpty()) {
            return dflt;
        }
        return switch (v.get().toLowerCase(Locale.ROOT)) {
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
    static String store(String s) {
        if (s.length() < 3) {
            throw ApiException.badParam("store", "value must be at least 3 characters long");
        }
        if (s.length() > 32) {
            throw ApiException.badParam("store", "value may only be 32 characters long");
        }
        if (!SafeId.isValid(s)) {
            throw ApiException.badParam("store", "value does not match the regex pattern");
        }
        return s;
    }
}
