package org.jpbs.server.auth;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import org.jpbs.core.api.BackupNamespace;

/**
 * Accepts a fixed set of API tokens, each with every datastore privilege: the stand-in until
 * users, tickets and ACLs exist. Header forms ({@code docs/protocol.md#authentication}):
 * {@code Authorization: PBSAPIToken=<tokenid>:<secret>} (PVE) and
 * {@code Authorization: PBSAPIToken <tokenid>:<secret>} (the real client; secret
 * percent-decoded). Secrets are compared in constant time.
 */
public final class StaticTokenAuthenticator implements Authenticator {
    private static final String PREFIX = "PBSAPIToken";

    private final Map<String, String> secrets;

    /** @param secrets token id ({@code user@realm!name}) to secret */
    public StaticTokenAuthenticator(Map<String, String> secrets) {
        this.secrets = Map.copyOf(secrets);
    }

    @Override
    public AuthResult authenticate(HttpHeaders headers) {
        String h = headers.get(HttpHeaderNames.AUTHORIZATION);
        if (h == null) {
            return AuthResult.failed(AuthResult.NO_CREDENTIALS);
        }
        h = h.trim();
        if (!h.startsWith(PREFIX) || h.length() <= PREFIX.length()
                || (h.charAt(PREFIX.length()) != '=' && h.charAt(PREFIX.length()) != ' ')) {
            return AuthResult.failed(AuthResult.INVALID_CREDENTIALS);
        }
        String rest = h.substring(PREFIX.length() + 1).trim();
        int colon = rest.indexOf(':');
        if (colon <= 0) {
            return AuthResult.failed(AuthResult.INVALID_CREDENTIALS);
        }
        String tokenId = rest.substring(0, colon);
        String secret = QueryStringDecoder.decodeComponent(
                rest.substring(colon + 1).replace("+", "%2B"), StandardCharsets.UTF_8); // percent-decoding only
        String expected = secrets.get(tokenId);
        if (expected == null || !MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
                secret.getBytes(StandardCharsets.UTF_8))) {
            return AuthResult.failed(AuthResult.INVALID_CREDENTIALS);
        }
        return AuthResult.ok(tokenId);
    }

    @Override
    public boolean canBackup(String authid, String store, BackupNamespace ns) {
        return secrets.containsKey(authid);
    }

    @Override
    public boolean canRead(String authid, String store, BackupNamespace ns) {
        return secrets.containsKey(authid);
    }
}
