package org.jpbs.client.remote;

/**
 * Questions the client may put to a person at a terminal: whether to trust an unknown server
 * certificate (its fingerprint shown) and the password of a user repository. The
 * non-interactive answer ({@link #none()}) asks nothing.
 */
public interface Interaction {
    /** True if this interaction can ask at all (a terminal is attached). */
    boolean canAsk();

    /**
     * Asks whether to trust a certificate that is neither pinned nor valid by the system trust store.
     *
     * @param server      {@code host:port}
     * @param fingerprint its SHA-256 fingerprint ({@code ab:cd:...})
     * @return true to trust it (it is then remembered for this server)
     */
    boolean trustCertificate(String server, String fingerprint);

    /** Asks for the password of {@code authId} on {@code server}; null if none was entered. */
    String password(String authId, String server);

    /** Asks nothing: unknown certificates are refused, a missing password is an error. */
    static Interaction none() {
        return new Interaction() {
            @Override
            public boolean canAsk() {
                return false;
            }

            @Override
            public boolean trustCertificate(String server, String fingerprint) {
                return false;
            }

            @Override
            public String password(String authId, String server) {
                return null;
            }
        };
    }
}
