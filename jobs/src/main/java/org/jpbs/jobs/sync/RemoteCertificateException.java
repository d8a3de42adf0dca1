package org.jpbs.jobs.sync;

import java.io.IOException;

/**
 * The remote's TLS certificate is not the one {@code remote.cfg} pins (it was renewed, or
 * somebody is in between): the sync stops before anything is read or written, and the message
 * shows both fingerprints so an administrator can check and update the pin.
 */
public final class RemoteCertificateException extends IOException {
    private final String pinned;
    private final String presented;

    /**
     * @param pinned    the fingerprint in {@code remote.cfg}, or null if none is set
     * @param presented the fingerprint of the certificate the server showed, or null if unknown
     */
    public RemoteCertificateException(String remote, String hostPort, String pinned, String presented, Throwable cause) {
        super("remote '" + remote + "' (" + hostPort + "): "
                + (pinned == null ? "the server's certificate is not trusted and remote.cfg pins no fingerprint"
                        : "the server's certificate changed - remote.cfg pins fingerprint " + pinned)
                + ", the server presents " + (presented == null ? "an unknown certificate" : presented)
                + "; check the server, then update the remote's fingerprint (jpbs remote update " + remote
                + " --fingerprint <new>)", cause);
        this.pinned = pinned;
        this.presented = presented;
    }

    /** The pinned fingerprint, or null. */
    public String pinned() {
        return pinned;
    }

    /** The presented fingerprint, or null. */
    public String presented() {
        return presented;
    }
}
