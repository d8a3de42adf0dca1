package org.jpbs.server.routing;

import java.util.List;
import java.util.Objects;
import org.jpbs.core.api.ArchiveName;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;

/**
 * One parameter of an {@link Endpoint}: its name, its type and limits as the API documentation
 * shows them, whether it is required, and the check that validates it with PBS's texts
 * ({@link ApiParams}; 400 {@code "parameter verification failed - '<name>': <reason>"}). The
 * dispatcher runs the checks of an endpoint's parameters in declaration order before the
 * handler, and refuses any parameter the endpoint does not declare (as PBS's schema does).
 *
 * @param name     the parameter name, e.g. {@code backup-type}
 * @param type     type and limits for the documentation, e.g. {@code integer 0..7}
 * @param required true if it must be present
 * @param group    the label of the parameter group it belongs to ({@code SNAP}, {@code GROUP};
 *                 the documentation shows the label instead of the members), or null
 * @param check    validates the value (absent values are checked too, for required ones)
 */
public record Param(String name, String type, boolean required, String group, Check check) {

    /** Validation of one parameter. */
    @FunctionalInterface
    public interface Check {
        /** @throws org.jpbs.server.http.ApiException 400 if the value is not acceptable */
        void check(ApiParams p);
    }

    public Param {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(check, "check");
    }

    /** This parameter as a member of the group {@code label}. */
    public Param in(String label) {
        return new Param(name, type, required, label, check);
    }

    /** A string without further limits. */
    public static Param string(String name, boolean required) {
        return new Param(name, "string", required, null, required ? p -> p.required(name) : p -> p.opt(name));
    }

    /** A string checked by {@code check} (which also handles absence). */
    public static Param custom(String name, String type, boolean required, Check check) {
        return new Param(name, type, required, null, check);
    }

    /** A boolean ({@code 1/true/yes/on}, {@code 0/false/no/off}) with a default. */
    public static Param bool(String name, boolean dflt) {
        return new Param(name, "boolean, default " + dflt, false, null, p -> p.bool(name, dflt));
    }

    /** An optional integer in {@code [min, max]}. */
    public static Param integer(String name, long min, long max, String dflt) {
        String range = max == Long.MAX_VALUE || max == Integer.MAX_VALUE ? "\u2265 " + min : min + ".." + max;
        return new Param(name, "integer " + range + (dflt == null ? "" : ", default " + dflt), false, null,
                p -> p.optInteger(name, min, max));
    }

    /** {@code backup-type}: {@code vm}, {@code ct} or {@code host}. */
    public static Param backupType(boolean required) {
        return new Param("backup-type", "vm|ct|host", required, null,
                required ? ApiParams::backupType : ApiParams::optBackupType);
    }

    /** {@code backup-id}: a safe id. */
    public static Param backupId(boolean required) {
        return new Param("backup-id", "safe id \u2264 " + BackupGroupRef.MAX_ID_LENGTH, required, null,
                required ? ApiParams::backupId : ApiParams::optBackupId);
    }

    /** {@code backup-time}: epoch seconds. */
    public static Param backupTime(boolean required) {
        return new Param("backup-time", "epoch seconds \u2265 " + ApiParams.MIN_BACKUP_TIME, required, null, p -> {
            if (required || p.text("backup-time").isPresent()) {
                p.backupTime();
            }
        });
    }

    /** An optional namespace ({@code ns}, {@code parent}); absent means the root. */
    public static Param namespace(String name) {
        return new Param(name, "namespace \u2264 " + BackupNamespace.MAX_LENGTH + ", default root", false, null,
                p -> p.namespace(name));
    }

    /** {@code file-name}: a file of a snapshot. */
    public static Param fileName() {
        return new Param("file-name", "safe id \u2264 " + ArchiveName.MAX_LENGTH, true, null, ApiParams::fileName);
    }

    /** The snapshot parameters {@code backup-type}, {@code backup-id}, {@code backup-time}, {@code ns} ("SNAP"). */
    public static List<Param> snapshotParams() {
        return List.of(backupType(true).in("SNAP"), backupId(true).in("SNAP"), backupTime(true).in("SNAP"),
                namespace("ns").in("SNAP"));
    }

    /** The group parameters {@code backup-type}, {@code backup-id}, {@code ns} ("GROUP"). */
    public static List<Param> groupParams() {
        return List.of(backupType(true).in("GROUP"), backupId(true).in("GROUP"), namespace("ns").in("GROUP"));
    }
}
