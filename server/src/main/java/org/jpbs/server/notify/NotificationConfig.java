package org.jpbs.server.notify;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jpbs.datastore.config.SectionConfigText;
import org.jpbs.datastore.config.SectionConfigText.Section;

/**
 * {@code notifications.cfg} and {@code notifications-priv.cfg} ({@code docs/notifications.md#files}):
 * sections {@code sendmail:}, {@code smtp:}, {@code gotify:}, {@code webhook:} (targets) and
 * {@code matcher:}, in PBS's section-config syntax with array properties written as one line
 * per item; secrets (SMTP {@code password}, gotify {@code token}, webhook {@code secret}) live
 * in the private file under a section of the same type and name. Like PBS, a built-in
 * {@code sendmail: mail-to-root} target ({@code mailto-user root@pam}) and
 * {@code matcher: default-matcher} (routing everything to it) exist unless the file defines
 * sections of those names. Immutable.
 */
public final class NotificationConfig {
    /** The public file. */
    public static final String FILE = "notifications.cfg";
    /** The file with secrets (mode 0600). */
    public static final String PRIV_FILE = "notifications-priv.cfg";
    /** Target section types. */
    public static final List<String> TARGET_TYPES = List.of("sendmail", "smtp", "gotify", "webhook");
    /** The matcher section type. */
    public static final String MATCHER = "matcher";
    /** Keys written as one line per item. */
    static final Set<String> ARRAYS = Set.of("mailto", "mailto-user", "header", "secret", "match-field",
            "match-severity", "match-calendar", "target");
    private static final String BUILTIN_TARGET = "mail-to-root";
    private static final String BUILTIN_MATCHER = "default-matcher";

    private final SectionConfigText pub;
    private final SectionConfigText priv;

    /**
     * One target or matcher.
     *
     * @param type    section type ({@code smtp}, {@code matcher}, ...)
     * @param name    its name
     * @param section the public properties
     * @param secrets the private properties (empty section if none)
     * @param origin  {@code user-created}, {@code builtin} or {@code modified-builtin}
     */
    public record Entry(String type, String name, Section section, Section secrets, String origin) {
        /** A public property or null. */
        public String get(String key) {
            return section.get(key);
        }

        /** Every value of an array property. */
        public List<String> values(String key) {
            return section.values(key);
        }

        /** A private property or null. */
        public String secret(String key) {
            return secrets.get(key);
        }

        /** True if {@code disable} is set to a true value. */
        public boolean disabled() {
            String d = get("disable");
            return d != null && (d.equals("1") || d.equalsIgnoreCase("true") || d.equalsIgnoreCase("yes") || d.equals("on"));
        }
    }

    private NotificationConfig(SectionConfigText pub, SectionConfigText priv) {
        this.pub = pub;
        this.priv = priv;
    }

    /**
     * Parses the two files' texts. As PBS's section-config parser, a property the section's type
     * does not have is an error (a secret in the public file too, and a public property in the
     * private one).
     *
     * @throws IllegalArgumentException {@code "notifications.cfg line N: ..."} on a syntax error,
     *                                  an unknown section type, or an unknown property:
     *                                  {@code "notifications.cfg line 5: unknown property 'foo' in section 'webhook: hook1'"}
     */
    public static NotificationConfig parse(String pubText, String privText) {
        SectionConfigText p = SectionConfigText.parse(pubText, FILE, ARRAYS);
        SectionConfigText s = SectionConfigText.parse(privText, PRIV_FILE, ARRAYS);
        checkKeys(p, false);
        checkKeys(s, true);
        return new NotificationConfig(p, s);
    }

    private static void checkKeys(SectionConfigText file, boolean secrets) {
        file.requireKnown(t -> t.equals(MATCHER) || TARGET_TYPES.contains(t),
                (t, key) -> NotificationEdits.keys(t).contains(key) && NotificationEdits.secret(key) == secrets);
    }

    /**
     * Reads {@code <configDir>/notifications.cfg} and {@code notifications-priv.cfg} (missing files are empty).
     *
     * @throws IOException              if a file cannot be read
     * @throws IllegalArgumentException on a syntax error
     */
    public static NotificationConfig load(Path configDir) throws IOException {
        return parse(read(configDir.resolve(FILE)), read(configDir.resolve(PRIV_FILE)));
    }

    private static String read(Path f) throws IOException {
        try {
            return Files.readString(f, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return "";
        }
    }

    /** The public file's text. */
    public String publicText() {
        return pub.text();
    }

    /** The private file's text. */
    public String privateText() {
        return priv.text();
    }

    /** Every target (built-in one included), in file order. */
    public List<Entry> targets() {
        return entries(false);
    }

    /** Every matcher (built-in one included), in file order. */
    public List<Entry> matchers() {
        return entries(true);
    }

    private List<Entry> entries(boolean matchers) {
        List<Entry> out = new ArrayList<>();
        for (Section s : pub.sections()) {
            if (s.type().equals(MATCHER) == matchers) {
                out.add(entry(s));
            }
        }
        String builtin = matchers ? BUILTIN_MATCHER : BUILTIN_TARGET;
        if (out.stream().noneMatch(e -> e.name().equals(builtin))) {
            out.addFirst(matchers
                    ? new Entry(MATCHER, BUILTIN_MATCHER, new Section(MATCHER, BUILTIN_MATCHER, Map.of(
                            "comment", "Route all notifications to mail-to-root", "target", BUILTIN_TARGET)),
                            new Section(MATCHER, BUILTIN_MATCHER, Map.of()), "builtin")
                    : new Entry("sendmail", BUILTIN_TARGET, new Section("sendmail", BUILTIN_TARGET, Map.of(
                            "comment", "Send mails to root@pam's email address", "mailto-user", "root@pam")),
                            new Section("sendmail", BUILTIN_TARGET, Map.of()), "builtin"));
        }
        return out;
    }

    private Entry entry(Section s) {
        Section secrets = priv.section(s.type(), s.id()).orElse(new Section(s.type(), s.id(), Map.of()));
        boolean builtin = s.id().equals(s.type().equals(MATCHER) ? BUILTIN_MATCHER : BUILTIN_TARGET);
        return new Entry(s.type(), s.id(), s, secrets, builtin ? "modified-builtin" : "user-created");
    }

    /** The target called {@code name}. */
    public Optional<Entry> target(String name) {
        return targets().stream().filter(e -> e.name().equals(name)).findFirst();
    }

    /** The matcher called {@code name}. */
    public Optional<Entry> matcher(String name) {
        return matchers().stream().filter(e -> e.name().equals(name)).findFirst();
    }

    /**
     * A copy with the section {@code type: name} replaced (or added) by these properties.
     *
     * @param pubProps  public properties (arrays as several values)
     * @param privProps private properties; an empty map removes the private section
     * @throws IllegalArgumentException on an invalid key or value
     */
    public NotificationConfig with(String type, String name, Map<String, List<String>> pubProps,
                                   Map<String, List<String>> privProps) {
        SectionConfigText p = pub.section(type, name).isPresent() ? pub.withoutSection(type, name) : pub;
        SectionConfigText s = priv.section(type, name).isPresent() ? priv.withoutSection(type, name) : priv;
        p = p.withSectionValues(type, name, pubProps);
        if (!privProps.isEmpty()) {
            s = s.withSectionValues(type, name, privProps);
        }
        return new NotificationConfig(p, s);
    }

    /** A copy without the section {@code type: name} (public and private); unchanged if absent. */
    public NotificationConfig without(String type, String name) {
        SectionConfigText p = pub.section(type, name).isPresent() ? pub.withoutSection(type, name) : pub;
        SectionConfigText s = priv.section(type, name).isPresent() ? priv.withoutSection(type, name) : priv;
        return new NotificationConfig(p, s);
    }
}
