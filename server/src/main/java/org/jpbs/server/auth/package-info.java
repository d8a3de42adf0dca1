/**
 * Authentication and datastore privileges ({@code docs/protocol.md#authentication}, {@code docs/api.md#conventions-as-pbs}): the
 * {@link org.jpbs.server.auth.Authenticator} hook the protocols use;
 * {@link org.jpbs.server.auth.StaticTokenAuthenticator}, which accepts fixed API tokens; and the
 * file-backed implementation {@link org.jpbs.server.auth.FileAuthenticator} over a config
 * directory — users and tokens in {@code user.cfg} ({@link org.jpbs.server.auth.UserConfig},
 * PBS section-config syntax, {@link org.jpbs.server.auth.SectionConfig}), ACLs in {@code acl.cfg}
 * ({@link org.jpbs.server.auth.AclConfig}, resolved by {@link org.jpbs.server.auth.AclResolver}
 * with the PBS {@link org.jpbs.server.auth.Role roles} and
 * {@link org.jpbs.server.auth.Privilege privileges}), password and token-secret hashes in
 * {@code shadow.json} / {@code token.shadow} ({@link org.jpbs.server.auth.PasswordHash}) and
 * tickets/CSRF tokens signed with {@code authkey.key} ({@link org.jpbs.server.auth.Tickets}).
 * {@link org.jpbs.server.auth.AuthConfig} is the administration API the CLI uses.
 */
package org.jpbs.server.auth;
