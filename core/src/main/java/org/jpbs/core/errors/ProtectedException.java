package org.jpbs.core.errors;

import java.io.IOException;

/**
 * A protected snapshot (one with a {@code .protected} marker) was to be removed. The message
 * names it: {@code "cannot remove protected snapshot <ref>"}; {@link #snapshot()} is the
 * reference alone. Server: 400 (the API's forget answers PBS's {@code "cannot remove protected
 * snapshot"}); CLI: the "protected" exit code.
 */
public class ProtectedException extends IOException {
    private static final long serialVersionUID = 1L;
    private final String snapshot;

    /** @param snapshot the snapshot, e.g. {@code vm/100/2024-01-01T00:00:00Z} */
    public ProtectedException(String snapshot) {
        super("cannot remove protected snapshot " + snapshot);
        this.snapshot = snapshot;
    }

    /** The protected snapshot. */
    public String snapshot() {
        return snapshot;
    }
}
