package org.jpbs.core.errors;

import java.io.IOException;

/**
 * A key, passphrase or signature does not fit the data: wrong passphrase for a key file, a key
 * file whose fingerprint does not match its key, a backup made with another key (the message
 * names both fingerprints), a manifest signature that does not verify, or ciphertext whose GCM
 * tag does not verify. The message is one line and names the file or snapshot concerned.
 */
public class CryptoException extends IOException {
    /** @param message one line naming the resource and what is wrong */
    public CryptoException(String message) {
        super(message);
    }

    /** As {@link #CryptoException(String)}, with the underlying cause (may be null). */
    public CryptoException(String message, Throwable cause) {
        super(message, cause);
    }
}
