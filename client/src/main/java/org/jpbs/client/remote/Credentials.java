package org.jpbs.client.remote;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.jpbs.client.http.TlsTrust;

/**
 * How the client proves who it is and which server certificate it trusts ({@code docs/protocol.md#authentication}).
 *
 * @param secret      the password of a user repository (ticket login) or the secret of an API
 *                    token repository; null if none was given
 * @param fingerprint the pinned server certificate fingerprint ({@code ab:cd:...}), or null to
 *                    rely on the JDK trust store only
 */
public record Credentials(String secret, String fingerprint) {
    /** Environment variable with the password or token secret (first line only). */
    public static final String PBS_PASSWORD = "PBS_PASSWORD";
    /** Environment variable naming a file whose first line is the password or token secret. */
    public static final String PBS_PASSWORD_FILE = "PBS_PASSWORD_FILE";
    /** Environment variable with the pinned certificate fingerprint. */
    public static final String PBS_FINGERPRINT = "PBS_FINGERPRINT";

    /**
     * Reads {@code PBS_PASSWORD} (else {@code PBS_PASSWORD_FILE}) and {@code PBS_FINGERPRINT}.
     *
     * @param env                 the environment
     * @param fingerprintOverride {@code --fingerprint}, wins over the environment; null if not given
     * @throws IllegalArgumentException if the fingerprint is malformed or the password file cannot be read
     */
    public static Credentials fromEnv(Map<String, String> env, String fingerprintOverride) {
        String secret = firstLine(env.get(PBS_PASSWORD));
        if (secret == null && env.get(PBS_PASSWORD_FILE) != null) {
            Path p = Path.of(env.get(PBS_PASSWORD_FILE));
            try {
                secret = firstLine(Files.readString(p, StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new IllegalArgumentException(PBS_PASSWORD_FILE + ": cannot read " + p + ": " + e.getMessage(), e);
            }
        }
        String fp = fingerprintOverride != null ? fingerprintOverride : env.get(PBS_FINGERPRINT);
        if (fp != null && fp.isBlank()) {
            fp = null;
        }
        if (fp != null) {
            try {
                fp = TlsTrust.pinned(fp).pinnedFingerprint();
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException((fingerprintOverride != null ? "--fingerprint" : PBS_FINGERPRINT)
                        + ": " + e.getMessage(), e);
            }
        }
        return new Credentials(secret, fp);
    }

    private static String firstLine(String s) {
        if (s == null) {
            return null;
        }
        int nl = s.indexOf('\n');
        String line = nl < 0 ? s : s.substring(0, nl);
        if (line.endsWith("\r")) {
            line = line.substring(0, line.length() - 1);
        }
        return line;
    }

    /** The TLS trust these credentials describe. */
    public TlsTrust trust() {
        return TlsTrust.pinned(fingerprint);
    }

    /** Hides the secret. */
    @Override
    public String toString() {
        return "Credentials[secret=" + (secret == null ? "none" : "***") + ", fingerprint=" + fingerprint + "]";
    }
}
