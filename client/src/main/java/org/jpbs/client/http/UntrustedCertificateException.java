package org.jpbs.client.http;

import java.io.IOException;

/**
 * The server's certificate is neither valid by the JDK trust store nor pinned. The message names
 * the fingerprint ({@code "certificate fingerprint <fp> is not trusted; set PBS_FINGERPRINT=<fp>
 * to trust it"}), which {@link #fingerprint()} also returns.
 */
public final class UntrustedCertificateException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String fingerprint;

    UntrustedCertificateException(String message, String fingerprint) {
        super(message);
        this.fingerprint = fingerprint;
    }

    /** The SHA-256 fingerprint of the refused certificate ({@code ab:cd:...}), or null if none was sent. */
    public String fingerprint() {
        return fingerprint;
    }
}
