/**
 * Authentication and datastore privileges as the protocols need them (spec
 * {@code pbs-protocol.md} §4.2, §4.3): the {@link org.jpbs.server.auth.Authenticator} hook and
 * {@link org.jpbs.server.auth.StaticTokenAuthenticator}, which accepts fixed API tokens in both
 * {@code PBSAPIToken} header forms.
 */
package org.jpbs.server.auth;
