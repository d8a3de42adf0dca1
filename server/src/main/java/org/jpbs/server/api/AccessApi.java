package org.jpbs.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.jpbs.server.auth.AclConfig;
import org.jpbs.server.auth.AuthConfig;
import org.jpbs.server.auth.AuthState;
import org.jpbs.server.auth.Authid;
import org.jpbs.server.auth.Privilege;
import org.jpbs.server.auth.SectionConfig.Section;
import org.jpbs.server.auth.UserConfig;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.RestResponse;
import org.jpbs.server.routing.ApiParams;

/**
 * The access calls the web interface needs, as PBS ({@code docs/api.md#access}):
 * {@code GET access/users} (every user with {@code Sys.Audit} on {@code /access/users}, else the
 * caller's own; {@code include_tokens}), {@code POST access/users/{userid}/token/{token-name}}
 * ({@code Permissions.Modify} on {@code /access/users}, or the user itself, not one of its
 * tokens; answers {@code {"tokenid","value"}}, the secret shown once) and {@code GET access/acl}
 * (every entry with {@code Sys.Audit} on {@code /access/acl}, else the caller's and its tokens';
 * {@code path}, {@code exact}).
 */
final class AccessApi {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final List<String> USERS_PATH = List.of("access", "users");
    private static final List<String> ACL_PATH = List.of("access", "acl");
    private static final List<String> USER_PROPS = List.of("comment", "enable", "expire", "firstname", "lastname", "email");

    private AccessApi() {}

    private static boolean has(Access acc, List<String> path, Privilege p) {
        return (acc.auth().privileges(acc.authid(), path) & p.bit()) != 0;
    }

    /** {@code GET access/users}. */
    static RestResponse users(Access acc, ApiParams p) {
        boolean tokens = p.bool("include_tokens", false);
        Authid me = Authid.parse(acc.authid());
        boolean all = has(acc, USERS_PATH, Privilege.SYS_AUDIT);
        AuthState s = acc.auth().state();
        ArrayNode out = F.arrayNode();
        List<Section> users = new java.util.ArrayList<>(s.users().sections().stream()
                .filter(x -> x.type().equals(UserConfig.USER)).toList());
        if (users.stream().noneMatch(x -> x.id().equals(Authid.ROOT.toString()))) {
            users.addFirst(UserConfig.section(UserConfig.USER, Authid.ROOT, null)); // root@pam always exists
        }
        for (Section u : users) {
            Authid id = Authid.parse(u.id());
            if (!all && !id.equals(me.user())) {
                continue;
            }
            ObjectNode o = out.addObject();
            o.put("userid", u.id());
            props(o, u.props());
            if (tokens) {
                ArrayNode list = F.arrayNode();
                for (Authid t : s.users().tokensOf(id)) {
                    if (!all && me.isToken() && !t.equals(me)) {
                        continue; // a token sees itself only
                    }
                    ObjectNode to = list.addObject().put("tokenid", t.toString());
                    s.users().token(t).ifPresent(sec -> props(to, sec.props()));
                }
                if (!list.isEmpty()) {
                    o.set("tokens", list);
                }
            }
        }
        return RestResponse.data(out);
    }

    private static void props(ObjectNode o, Map<String, String> props) {
        for (String k : USER_PROPS) {
            String v = props.get(k);
            if (v == null || v.isEmpty()) {
                continue;
            }
            switch (k) {
                case "enable" -> o.put(k, v.equals("1") || v.equalsIgnoreCase("true"));
                case "expire" -> {
                    try {
                        o.put(k, Long.parseLong(v));
                    } catch (NumberFormatException e) {
                        o.put(k, 0);
                    }
                }
                default -> o.put(k, v);
            }
        }
    }

    /** The {@code {userid}} path variable: a user, not a token. */
    static String checkUserid(String v) {
        try {
            return Authid.parseUser(v).toString();
        } catch (IllegalArgumentException e) {
            throw ApiException.badParam("userid", "value does not match the regex pattern");
        }
    }

    /** {@code POST access/users/{userid}/token/{token-name}}: a new token, its secret answered once. */
    static RestResponse createToken(Access acc, String userid, String tokenName, ApiParams p) throws IOException {
        Authid user;
        Authid token;
        try {
            user = Authid.parseUser(userid);
        } catch (IllegalArgumentException e) {
            throw ApiException.badParam("userid", "value does not match the regex pattern");
        }
        try {
            token = user.token(tokenName);
        } catch (IllegalArgumentException e) {
            throw ApiException.badParam("token-name", "value does not match the regex pattern");
        }
        String comment = p.opt("comment").orElse(null);
        if (comment != null) {
            ApiParams.checkLength("comment", comment, 128);
        }
        if (!acc.authid().equals(user.toString()) && !has(acc, USERS_PATH, Privilege.PERMISSIONS_MODIFY)) {
            throw new ApiException(403, "permission check failed");
        }
        AuthState s = acc.auth().state();
        if (!s.users().userExists(user)) {
            throw ApiException.badRequest("no such user '" + user + "'");
        }
        if (s.users().token(token).isPresent()) {
            throw ApiException.badRequest("token '" + tokenName + "' for user '" + user + "' already exists.");
        }
        String secret;
        try {
            secret = AuthConfig.open(acc.auth().configDir()).createToken(user.toString(), tokenName, comment);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        return RestResponse.data(F.objectNode().put("tokenid", token.toString()).put("value", secret));
    }

    /** {@code GET access/acl}. */
    static RestResponse acl(Access acc, ApiParams p) {
        String path = p.opt("path").orElse(null);
        boolean exact = p.bool("exact", false);
        Authid me = Authid.parse(acc.authid());
        boolean all = has(acc, ACL_PATH, Privilege.SYS_AUDIT);
        ArrayNode out = F.arrayNode();
        for (AclConfig.Entry e : acc.auth().state().acl().entries()) {
            if (path != null && !(exact ? e.path().equals(path) : under(e.path(), path))) {
                continue;
            }
            if (!all && !visible(me, e.ugid())) {
                continue;
            }
            out.addObject().put("path", e.path()).put("propagate", e.propagate()).put("roleid", e.role())
                    .put("ugid", e.ugid()).put("ugid_type", "user");
        }
        return RestResponse.data(out);
    }

    private static boolean under(String entry, String path) {
        String base = path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
        return base.equals("/") || entry.equals(base) || entry.startsWith(base + "/");
    }

    /** A user sees its own entries and those of its tokens; a token only its own. */
    private static boolean visible(Authid me, String ugid) {
        if (me.toString().equals(ugid)) {
            return true;
        }
        try {
            return !me.isToken() && Authid.parse(ugid).user().equals(me);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
