package org.jpbs.datastore.jobs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jpbs.datastore.config.SectionConfigText;

/**
 * A whole job file ({@code prune.cfg}, {@code verification.cfg}, {@code sync.cfg} or
 * {@code remote.cfg}): the lossless text and the typed sections of its kind, in file order.
 * Edits keep every other line as it is. As PBS's section-config parser, a section of another
 * type or a property the kind does not have is an error naming the file, line and section. Immutable.
 */
public final class JobConfigFile {
    private final JobKind kind;
    private final SectionConfigText text;
    private final Map<String, JobConfig> sections;

    private JobConfigFile(JobKind kind, SectionConfigText text) {
        this.kind = kind;
        this.text = text;
        text.requireKnown(kind.sectionType()::equals, (type, key) -> kind.keys().contains(key)); // as PBS's parser
        Map<String, JobConfig> m = new LinkedHashMap<>();
        for (SectionConfigText.Section s : text.sections()) {
            if (s.type().equals(kind.sectionType())) {
                Map<String, String> props = new LinkedHashMap<>(s.props());
                for (String k : kind.listKeys()) {
                    if (props.containsKey(k)) {
                        props.put(k, String.join("\n", s.values(k)));
                    }
                }
                try {
                    m.put(s.id(), new JobConfig(kind, s.id(), props));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(text.resource() + ": " + e.getMessage(), e);
                }
            }
        }
        this.sections = m;
    }

    /**
     * Parses a file's text.
     *
     * @throws IllegalArgumentException naming the file and line, or the section and key (also an
     *                                  unknown section type or property)
     */
    public static JobConfigFile parse(JobKind kind, String text, String resource) {
        return new JobConfigFile(kind, SectionConfigText.parse(text, resource, kind.listKeys()));
    }

    /** The kind of file. */
    public JobKind kind() {
        return kind;
    }

    /** The text to write. */
    public String text() {
        return text.text();
    }

    /** SHA-256 of the text, hex (the PBS config {@code digest}). */
    public String digest() {
        return text.digest();
    }

    /** All sections of the kind, in file order. */
    public List<JobConfig> all() {
        return new ArrayList<>(sections.values());
    }

    /** The section with this id. */
    public Optional<JobConfig> get(String id) {
        return Optional.ofNullable(sections.get(id));
    }

    /**
     * Adds a section (keys sorted, as PBS writes).
     *
     * @throws IllegalArgumentException if the id exists or a value is invalid
     */
    public JobConfigFile with(JobConfig c) {
        if (sections.containsKey(c.id())) {
            throw new IllegalArgumentException(kind.sectionType() + " '" + c.id() + "' already exists");
        }
        c.props().forEach(kind::checkValue); // a new section carries known keys only
        Map<String, List<String>> lines = new LinkedHashMap<>();
        c.props().keySet().forEach(k -> lines.put(k, kind.listKeys().contains(k) ? c.values(k) : List.of(c.props().get(k))));
        return new JobConfigFile(kind, text.withSectionValues(kind.sectionType(), c.id(), lines));
    }

    /**
     * Sets (non-null) or removes (null) properties of a section; the result is checked whole.
     *
     * @throws IllegalArgumentException if there is no such section or the result is invalid
     */
    public JobConfigFile withProperties(String id, Map<String, String> changes) {
        if (!sections.containsKey(id)) {
            throw new IllegalArgumentException("no such " + kind.sectionType() + " '" + id + "'");
        }
        SectionConfigText t = text;
        for (Map.Entry<String, String> e : changes.entrySet()) {
            if (e.getValue() != null) {
                kind.checkValue(e.getKey(), e.getValue());
            }
            if (kind.listKeys().contains(e.getKey())) { // one line per item
                t = t.withPropertyValues(kind.sectionType(), id, e.getKey(),
                        e.getValue() == null ? List.of() : List.of(e.getValue().split("\n")));
            } else {
                t = t.withProperty(kind.sectionType(), id, e.getKey(), e.getValue());
            }
        }
        return new JobConfigFile(kind, t);
    }

    /**
     * Removes a section.
     *
     * @throws IllegalArgumentException if there is no such section
     */
    public JobConfigFile without(String id) {
        if (!sections.containsKey(id)) {
            throw new IllegalArgumentException("no such " + kind.sectionType() + " '" + id + "'");
        }
        return new JobConfigFile(kind, text.withoutSection(kind.sectionType(), id));
    }
}
