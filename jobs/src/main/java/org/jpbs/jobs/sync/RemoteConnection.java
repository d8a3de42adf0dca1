package org.jpbs.jobs.sync;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.jpbs.client.http.UntrustedCertificateException;
import org.jpbs.client.remote.Credentials;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.client.remote.Repository;
import org.jpbs.datastore.jobs.JobConfig;
import org.jpbs.datastore.jobs.JobKind;

/**
 * A connection to a remote of {@code remote.cfg} ({@code docs/sync.md#remotes}): host, port
 * (default 8007), auth-id, password (base64 in the file, as PBS writes it) and the pinned
 * certificate fingerprint. A certificate that does not match the pin fails with
 * {@link RemoteCertificateException}, which names both fingerprints.
 */
public final class RemoteConnection {
    private RemoteConnection() {}

    /** A client for datastore {@code store} of the remote. */
    public static PbsClient open(JobConfig remote, String store) {
        if (remote.kind() != JobKind.REMOTE) {
            throw new IllegalArgumentException(remote.id() + " is not a remote");
        }
        int port = remote.get("port").map(Integer::parseInt).orElse(Repository.DEFAULT_PORT);
        Repository repo = new Repository(remote.get("auth-id").orElseThrow(), remote.get("host").orElseThrow(), port,
                store, null);
        return new PbsClient(repo, new Credentials(password(remote), remote.get("fingerprint").orElse(null)));
    }

    /** The password: base64-decoded as PBS stores it; a value that is not base64 is taken as is. */
    static String password(JobConfig remote) {
        String p = remote.get("password").orElse("");
        try {
            return new String(Base64.getDecoder().decode(p), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return p;
        }
    }

    /**
     * Turns a certificate refusal anywhere in {@code e}'s causes into the remote's clear error;
     * returns {@code e} unchanged otherwise.
     */
    public static IOException explain(JobConfig remote, IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof UntrustedCertificateException u) {
                return new RemoteCertificateException(remote.id(), remote.get("host").orElse("?") + ":"
                        + remote.get("port").orElse(String.valueOf(Repository.DEFAULT_PORT)),
                        remote.get("fingerprint").orElse(null), u.fingerprint(), u);
            }
        }
        return e;
    }
}
