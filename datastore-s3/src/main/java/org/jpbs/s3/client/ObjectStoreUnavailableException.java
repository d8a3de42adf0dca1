package org.jpbs.s3.client;

import java.io.IOException;

/**
 * The object store did not answer properly after all retries (connection lost, truncated or
 * damaged answer, server error, throttling). A transient condition: nothing may be concluded
 * about the object (a verify reports "could not read", never "corrupt").
 */
public final class ObjectStoreUnavailableException extends IOException {
    private static final long serialVersionUID = 1L;

    /** With a message {@code could not read|write|delete s3://<bucket>/<key> …}. */
    public ObjectStoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
