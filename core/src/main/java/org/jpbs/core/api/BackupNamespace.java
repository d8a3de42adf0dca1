package org.jpbs.core.api;

import java.util.ArrayList;
import java.util.List;

/**
 * A backup namespace ({@code docs/formats.md#datastore-layout}): a path of up to 7 safe-id components,
 * written {@code a/b} (the root is the empty string) and stored on disk as
 * {@code ns/a/ns/b}. Immutable value class.
 */
public final class BackupNamespace {
    /** Maximum number of components. */
    public static final int MAX_DEPTH = 7;
    /** Maximum length of the {@code a/b} form in characters (PBS {@code MAX_BACKUP_NAMESPACE_LENGTH}). */
    public static final int MAX_LENGTH = 256;
    /**
     * Maximum length of one component: 255, the longest file name (a component is a directory
     * name); PBS checks only the total, so a single 256-character component fails there on disk.
     */
    public static final int MAX_COMPONENT_LENGTH = 255;

    /** The root namespace (no components). */
    public static final BackupNamespace ROOT = new BackupNamespace(List.of());

    private final List<String> components;

    private BackupNamespace(List<String> components) {
        this.components = List.copyOf(components);
    }

    /**
     * Parses {@code "a/b"}; the empty string is the root.
     *
     * @throws IllegalArgumentException naming the value on an empty or invalid component, more
     *                                  than 7 levels, or more than 256 characters
     */
    public static BackupNamespace parse(String s) {
        if (s == null) {
            throw new IllegalArgumentException("namespace must not be null");
        }
        if (s.isEmpty()) {
            return ROOT;
        }
        if (s.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("namespace '" + s + "' is longer than " + MAX_LENGTH + " characters");
        }
        List<String> parts = new ArrayList<>();
        for (String p : s.split("/", -1)) {
            if (p.isEmpty()) {
                throw new IllegalArgumentException("namespace '" + s + "' has an empty component");
            }
            if (p.length() > MAX_COMPONENT_LENGTH) {
                throw new IllegalArgumentException("namespace component is longer than " + MAX_COMPONENT_LENGTH
                        + " characters");
            }
            if (!SafeId.isValid(p)) {
                throw new IllegalArgumentException("namespace '" + s + "' has an invalid component '" + p + "'");
            }
            parts.add(p);
        }
        if (parts.size() > MAX_DEPTH) {
            throw new IllegalArgumentException("namespace '" + s + "' is deeper than " + MAX_DEPTH + " levels");
        }
        return new BackupNamespace(parts);
    }

    /** The components, root first (empty for the root). */
    public List<String> components() {
        return components;
    }

    /** True for the root namespace. */
    public boolean isRoot() {
        return components.isEmpty();
    }

    /** Number of components (0 for the root). */
    public int depth() {
        return components.size();
    }

    /** The path below the datastore root: {@code ""} or {@code ns/a/ns/b}. */
    public String relativePath() {
        StringBuilder sb = new StringBuilder();
        for (String c : components) {
            if (!sb.isEmpty()) {
                sb.append('/');
            }
            sb.append("ns/").append(c);
        }
        return sb.toString();
    }

    /**
     * The namespace one level below.
     *
     * @throws IllegalArgumentException if {@code name} is not a safe id or the depth would exceed 7
     */
    public BackupNamespace child(String name) {
        SafeId.check("namespace component", name);
        return parse(isRoot() ? name : this + "/" + name);
    }

    /** The parent namespace; the root's parent is the root. */
    public BackupNamespace parent() {
        return isRoot() ? ROOT : new BackupNamespace(components.subList(0, components.size() - 1));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BackupNamespace n && n.components.equals(components);
    }

    @Override
    public int hashCode() {
        return components.hashCode();
    }

    /** {@code a/b}, or the empty string for the root. */
    @Override
    public String toString() {
        return String.join("/", components);
    }
}
