package org.jpbs.server.auth;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jpbs.server.auth.SectionConfig.Section;

/**
 * The users and API tokens of {@code user.cfg} (PBS section-config syntax, vectors
 * {@code real-pbs/config/user.cfg}): {@code user: name@realm} sections with optional
 * {@code comment}, {@code enable} (default true), {@code expire} (epoch seconds, 0 = never),
 * {@code firstname}, {@code lastname}, {@code email}; {@code token: name@realm!tokenname}
 * sections with {@code comment}, {@code enable}, {@code expire}. Sections of other types are
 * kept as they are. Immutable; the {@code with...} methods return modified copies that keep
 * the section order (new sections are appended).
 */
public final class UserConfig {
    /** Section type of a user. */
    public static final String USER = "user";
    /** Section type of an API token. */
    public static final String TOKEN = "token";

    private final List<Section> sections;

    private UserConfig(List<Section> sections) {
        this.sections = List.copyOf(sections);
    }

    /** No users, no tokens. */
    public static UserConfig empty() {
        return new UserConfig(List.of());
    }

    /**
     * Parses {@code user.cfg}.
     *
     * @throws IllegalArgumentException naming the resource and line on a syntax error, or a
     *                                  user/token section whose id is not a valid user/token id
     */
    public static UserConfig parse(String text, String resource) {
        List<Section> secs = SectionConfig.parse(text, resource);
        for (Section s : secs) {
            if (s.type().equals(USER)) {
                checkId(resource, s, false);
            } else if (s.type().equals(TOKEN)) {
                checkId(resource, s, true);
            }
        }
        return new UserConfig(secs);
    }

    private static void checkId(String resource, Section s, boolean token) {
        try {
            Authid a = Authid.parse(s.id());
            if (a.isToken() != token) {
                throw new IllegalArgumentException(token ? "not a token id" : "not a user id");
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(resource + ": section '" + s.type() + ": " + s.id() + "': "
                    + e.getMessage(), e);
        }
    }

    /** The file text (PBS layout). */
    public String write() {
        return SectionConfig.write(sections);
    }

    /** All sections in file order. */
    public List<Section> sections() {
        return sections;
    }

    /** The section of a user (for a token id: of its user). */
    public Optional<Section> user(Authid id) {
        return find(USER, id.user().toString());
    }

    /** The section of a token. */
    public Optional<Section> token(Authid tokenId) {
        return find(TOKEN, tokenId.toString());
    }

    /** True if the user exists; {@code root@pam} always exists. */
    public boolean userExists(Authid id) {
        return id.user().isSuperuser() || user(id).isPresent();
    }

    /** The tokens of {@code user}, in file order. */
    public List<Authid> tokensOf(Authid user) {
        List<Authid> out = new ArrayList<>();
        for (Section s : sections) {
            if (s.type().equals(TOKEN)) {
                Authid t = Authid.parse(s.id());
                if (t.user().equals(user.user())) {
                    out.add(t);
                }
            }
        }
        return out;
    }

    private Optional<Section> find(String type, String id) {
        for (Section s : sections) {
            if (s.type().equals(type) && s.id().equals(id)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /**
     * True if {@code id} may authenticate at {@code nowEpochSec}: the user exists (root@pam
     * always does), is enabled and not expired; for a token the token section must exist and be
     * enabled and unexpired too.
     */
    public boolean isActive(Authid id, long nowEpochSec) {
        Optional<Section> u = user(id);
        if (u.isEmpty() && !id.user().isSuperuser()) {
            return false;
        }
        if (u.isPresent() && !enabledAndUnexpired(u.get(), nowEpochSec)) {
            return false;
        }
        if (id.isToken()) {
            Optional<Section> t = token(id);
            return t.isPresent() && enabledAndUnexpired(t.get(), nowEpochSec);
        }
        return true;
    }

    private static boolean enabledAndUnexpired(Section s, long now) {
        String enable = s.get("enable");
        if (enable != null) {
            String e = enable.trim().toLowerCase(Locale.ROOT);
            if (e.equals("0") || e.equals("false") || e.equals("no") || e.equals("off")) {
                return false;
            }
        }
        String expire = s.get("expire");
        if (expire != null && !expire.isBlank()) {
            try {
                long t = Long.parseLong(expire.trim());
                return t <= 0 || now < t;
            } catch (NumberFormatException ex) {
                return false;
            }
        }
        return true;
    }

    /** A copy with the section replaced (same type and id) or appended. */
    public UserConfig with(Section section) {
        List<Section> out = new ArrayList<>(sections);
        for (int i = 0; i < out.size(); i++) {
            Section s = out.get(i);
            if (s.type().equals(section.type()) && s.id().equals(section.id())) {
                out.set(i, section);
                return new UserConfig(out);
            }
        }
        out.add(section);
        return new UserConfig(out);
    }

    /** A copy without the section {@code type: id} (unchanged if absent). */
    public UserConfig without(String type, String id) {
        List<Section> out = new ArrayList<>(sections);
        out.removeIf(s -> s.type().equals(type) && s.id().equals(id));
        return new UserConfig(out);
    }

    /** A new user or token section with an optional comment. */
    public static Section section(String type, Authid id, String comment) {
        return new Section(type, id.toString(), comment == null || comment.isEmpty() ? Map.of() : Map.of("comment", comment));
    }
}
