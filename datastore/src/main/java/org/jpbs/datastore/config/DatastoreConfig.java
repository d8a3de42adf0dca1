package org.jpbs.datastore.config;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jpbs.core.api.SafeId;

/**
 * The typed view of one {@code datastore: <name>} section of {@code datastore.cfg} ({@code docs/datastore-config.md#datastorecfg}): {@code path} (required, absolute), {@code comment},
 * {@code gc-schedule}, {@code prune-schedule}, {@code keep-*} ({@link KeepOptions}),
 * {@code verify-new}, {@code notify-user}, {@code notify}, {@code notification-mode},
 * {@code tuning} ({@link DatastoreTuning}), {@code maintenance-mode} ({@link MaintenanceMode}).
 * Other keys are kept in {@link #properties()} and written back unchanged. Everything is
 * validated on construction. Immutable; {@link #equals} compares name and properties.
 */
public final class DatastoreConfig {
    /** Section type of a datastore. */
    public static final String TYPE = "datastore";

    private final String name;
    private final Map<String, String> props;
    private final Path path;
    private final DatastoreTuning tuning;
    private final MaintenanceMode maintenance;
    private final KeepOptions keep;

    /**
     * @param name  datastore name (safe id of 3..32 characters)
     * @param props the section's properties in file order
     * @throws IllegalArgumentException {@code "datastore '<name>': ..."} naming the bad property
     */
    public DatastoreConfig(String name, Map<String, String> props) {
        checkName(name);
        this.name = name;
        this.props = Collections.unmodifiableMap(new LinkedHashMap<>(props));
        try {
            String p = props.get("path");
            if (p == null || p.isEmpty()) {
                throw new IllegalArgumentException("missing 'path'");
            }
            this.path = Path.of(p);
            if (!path.isAbsolute()) {
                throw new IllegalArgumentException("path '" + p + "' is not absolute");
            }
            String t = props.get("tuning");
            this.tuning = t == null ? DatastoreTuning.DEFAULTS : DatastoreTuning.parse(t);
            String mm = props.get("maintenance-mode");
            this.maintenance = mm == null ? null : MaintenanceMode.parse(mm);
            this.keep = KeepOptions.of(props);
            for (String k : new String[] {"gc-schedule", "prune-schedule"}) {
                String v = props.get(k);
                if (v != null) {
                    try {
                        org.jpbs.core.calendar.CalendarEvent.parse(v);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(k + ": " + e.getMessage(), e);
                    }
                }
            }
            String vn = props.get("verify-new");
            if (vn != null) {
                PropertyString.parseBool("verify-new", vn);
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("datastore '" + name + "': " + e.getMessage(), e);
        }
    }

    /**
     * Checks a datastore name: a safe id ({@code [A-Za-z0-9_][A-Za-z0-9._-]*}) of 3..32 characters.
     *
     * @throws IllegalArgumentException naming the value
     */
    public static String checkName(String name) {
        if (name == null || !SafeId.isValid(name) || name.length() < 3 || name.length() > 32) {
            throw new IllegalArgumentException("invalid datastore name '" + name
                    + "' (3..32 characters: letters, digits, '_', and after the first also '.' and '-')");
        }
        return name;
    }

    /** The datastore name. */
    public String name() {
        return name;
    }

    /** All properties of the section, in file order (unknown keys included). */
    public Map<String, String> properties() {
        return props;
    }

    /** A property's raw value. */
    public Optional<String> property(String key) {
        return Optional.ofNullable(props.get(key));
    }

    /** The datastore root directory. */
    public Path path() {
        return path;
    }

    /** {@code comment}. */
    public Optional<String> comment() {
        return property("comment");
    }

    /** {@code gc-schedule} (a calendar event, {@code docs/datastore-config.md#datastorecfg}). */
    public Optional<String> gcSchedule() {
        return property("gc-schedule");
    }

    /** {@code prune-schedule}. */
    public Optional<String> pruneSchedule() {
        return property("prune-schedule");
    }

    /** The {@code keep-*} options. */
    public KeepOptions keep() {
        return keep;
    }

    /** {@code verify-new}: verify new backups right after they finish (default false). */
    public boolean verifyNew() {
        return props.containsKey("verify-new") && PropertyString.parseBool("verify-new", props.get("verify-new"));
    }

    /** {@code notify-user}. */
    public Optional<String> notifyUser() {
        return property("notify-user");
    }

    /** {@code tuning}, typed (defaults if absent). */
    public DatastoreTuning tuning() {
        return tuning;
    }

    /** {@code maintenance-mode}, if set. */
    public Optional<MaintenanceMode> maintenanceMode() {
        return Optional.ofNullable(maintenance);
    }

    /**
     * Whether {@code op} may start (see {@link MaintenanceMode#refusal}).
     *
     * @return empty if allowed, else the refusal text
     */
    public Optional<String> refusal(Operation op) {
        return maintenance == null ? Optional.empty() : maintenance.refusal(name, op);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DatastoreConfig c && c.name.equals(name) && c.props.equals(props);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, props);
    }

    @Override
    public String toString() {
        return "DatastoreConfig[" + name + " " + props + "]";
    }
}
