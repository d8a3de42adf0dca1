package org.jpbs.server.api;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.jpbs.server.auth.AclPaths;
import org.jpbs.server.auth.AclResolver;
import org.jpbs.server.auth.AuthState;
import org.jpbs.server.auth.Authid;
import org.jpbs.server.auth.Privilege;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.RestResponse;
import org.jpbs.server.routing.ApiParams;

/**
 * {@code GET access/permissions} as PBS ({@code docs/api.md#access}): the privileges of the
 * caller (or of {@code auth-id}: one of the caller's own tokens, or anyone with
 * {@code Sys.Audit} on {@code /access}) on {@code path}, or without {@code path} on every path
 * of the ACL plus {@code /}, {@code /access}, {@code /datastore}, {@code /remote},
 * {@code /system}; as {@code {"<path>": {"<privilege>": <propagates>}}}, paths without any
 * privilege left out (so none leaks). The web interface asks it which buttons to show.
 */
final class PermissionsApi {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    /** PBS's ACL_PATH_SCHEMA: {@code /} or {@code /component...}. */
    private static final Pattern PATH = Pattern.compile("/|(/[A-Za-z0-9_][A-Za-z0-9._\\-]*)+");
    private static final List<String> DEFAULT_PATHS = List.of("/", "/access", "/datastore", "/remote", "/system");

    private PermissionsApi() {}

    /** Checks {@code path} (400 {@code parameter verification failed - 'path': ...}). */
    static String checkPath(String path) {
        if (!PATH.matcher(path).matches()) {
            throw ApiException.badParam("path", "value does not match the regex pattern");
        }
        return path;
    }

    /** Checks {@code auth-id}. */
    static Authid checkAuthid(String id) {
        try {
            return Authid.parse(id);
        } catch (IllegalArgumentException e) {
            throw ApiException.badParam("auth-id", "value does not match the regex pattern");
        }
    }

    /** {@code GET access/permissions}. */
    static RestResponse list(Access acc, ApiParams p) {
        Authid me = Authid.parse(acc.authid());
        Authid who = p.opt("auth-id").map(PermissionsApi::checkAuthid).orElse(me);
        AuthState state = acc.auth().state();
        AclResolver resolver = state.resolver();
        if (!who.equals(me)) {
            boolean audit = (resolver.privileges(me, List.of("access")) & Privilege.SYS_AUDIT.bit()) != 0;
            boolean ownToken = who.isToken() && !me.isToken() && who.user().equals(me);
            if (!audit && !ownToken) {
                throw ApiException.badRequest("not allowed to list permissions of " + who);
            }
        }
        TreeSet<String> paths = new TreeSet<>();
        p.opt("path").map(PermissionsApi::checkPath).ifPresentOrElse(paths::add, () -> {
            paths.addAll(state.acl().paths());
            paths.addAll(DEFAULT_PATHS);
        });
        ObjectNode out = F.objectNode();
        for (String path : paths) {
            AclResolver.Privs privs = resolver.lookup(who, AclPaths.components(path));
            if (privs.privileges() == 0) {
                continue; // no privilege there: the path is not shown
            }
            ObjectNode m = out.putObject(path);
            for (Privilege priv : Privilege.values()) {
                if ((privs.privileges() & priv.bit()) != 0) {
                    m.put(priv.text(), (privs.propagated() & priv.bit()) != 0);
                }
            }
        }
        return RestResponse.data(out);
    }
}
