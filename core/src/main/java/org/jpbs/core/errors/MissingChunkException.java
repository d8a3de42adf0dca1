package org.jpbs.core.errors;

import java.io.IOException;
import org.jpbs.core.digest.Digest;

/** A chunk referenced by an index is not in the chunk store (or chunk source). */
public class MissingChunkException extends IOException {
    private final Digest digest;

    /** @param digest the 32-byte digest of the missing chunk */
    public MissingChunkException(Digest digest, String where) {
        super("missing chunk " + digest.hex() + (where == null ? "" : " (" + where + ")"));
        this.digest = digest;
    }

    public Digest digest() { return digest; }
}
