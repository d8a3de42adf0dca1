package org.jpbs.datastore.config;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The whole {@code datastore.cfg}: the lossless text ({@link SectionConfigText}) and the typed
 * view of every {@code datastore:} section ({@link DatastoreConfig}), in file order. Sections of
 * other types are kept in the text and ignored. Edits return a new value; every edit is
 * validated through the typed view before it is accepted. Immutable and thread-safe.
 */
public final class DatastoreConfigFile {
    private final SectionConfigText text;
    private final Map<String, DatastoreConfig> datastores;

    private DatastoreConfigFile(SectionConfigText text) {
        this.text = text;
        Map<String, DatastoreConfig> m = new LinkedHashMap<>();
        for (SectionConfigText.Section s : text.sections()) {
            if (s.type().equals(DatastoreConfig.TYPE)) {
                try {
                    m.put(s.id(), new DatastoreConfig(s.id(), s.props()));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(text.resource() + ": " + e.getMessage(), e);
                }
            }
        }
        this.datastores = Collections.unmodifiableMap(m);
    }

    /**
     * Parses the file's text.
     *
     * @param resource file name for messages
     * @throws IllegalArgumentException {@code "<resource> line <n>: ..."} on a syntax error, or
     *                                  {@code "<resource>: datastore '<name>': ..."} on a bad value
     */
    public static DatastoreConfigFile parse(String text, String resource) {
        return new DatastoreConfigFile(SectionConfigText.parse(text, resource));
    }

    /** A file without sections. */
    public static DatastoreConfigFile empty(String resource) {
        return parse("", resource);
    }

    /** The text to write (byte-identical to the parsed text when nothing was edited). */
    public String text() {
        return text.text();
    }

    /** The text as UTF-8 bytes. */
    public byte[] bytes() {
        return text().getBytes(StandardCharsets.UTF_8);
    }

    /** SHA-256 of the text as 64 lower-case hex digits (the PBS config {@code digest}). */
    public String digest() {
        return text.digest();
    }

    /** The datastores, in file order. */
    public List<DatastoreConfig> datastores() {
        return new ArrayList<>(datastores.values());
    }

    /** The datastore called {@code name}. */
    public Optional<DatastoreConfig> datastore(String name) {
        return Optional.ofNullable(datastores.get(name));
    }

    /**
     * Adds a datastore section (keys sorted, as PBS writes).
     *
     * @throws IllegalArgumentException {@code "datastore '<name>' already exists"}
     * @throws PathConflictException    if another datastore has the same path, or one inside or
     *                                  around it (PBS: {@code nested datastores not allowed: ...})
     */
    public DatastoreConfigFile withDatastore(DatastoreConfig c) {
        if (datastores.containsKey(c.name())) {
            throw new IllegalArgumentException("datastore '" + c.name() + "' already exists");
        }
        java.util.Optional<PathConflictException> conflict = pathConflict(c.path());
        if (conflict.isPresent()) {
            throw conflict.get();
        }
        return new DatastoreConfigFile(text.withSection(DatastoreConfig.TYPE, c.name(), c.properties()));
    }

    /**
     * The first datastore of this file whose path a new datastore at {@code wanted} would overlap
     * (the same directory, or one inside the other), as {@link PathConflictException#check}.
     */
    public java.util.Optional<PathConflictException> pathConflict(Path wanted) {
        for (DatastoreConfig o : datastores.values()) {
            java.util.Optional<PathConflictException> conflict = PathConflictException.check(o.name(), o.path(), wanted);
            if (conflict.isPresent()) {
                return conflict;
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * Sets ({@code value} non-null) or removes ({@code value} null) a property of a datastore;
     * the other lines stay as they are.
     *
     * @throws IllegalArgumentException {@code "no such datastore '<name>'"}, or if the result is
     *                                  not a valid datastore config (e.g. removing {@code path})
     */
    public DatastoreConfigFile withProperty(String name, String key, String value) {
        if (!datastores.containsKey(name)) {
            throw new IllegalArgumentException("no such datastore '" + name + "'");
        }
        return new DatastoreConfigFile(text.withProperty(DatastoreConfig.TYPE, name, key, value));
    }

    /**
     * Removes a datastore's section.
     *
     * @throws IllegalArgumentException {@code "no such datastore '<name>'"}
     */
    public DatastoreConfigFile withoutDatastore(String name) {
        if (!datastores.containsKey(name)) {
            throw new IllegalArgumentException("no such datastore '" + name + "'");
        }
        return new DatastoreConfigFile(text.withoutSection(DatastoreConfig.TYPE, name));
    }
}
