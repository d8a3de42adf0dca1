package org.jpbs.client.pxar.fs;

import org.jpbs.core.errors.NotFoundException;

/**
 * An extraction with patterns ({@link TreeExtractor.Options#patterns()}) restored no entry: what
 * was asked for is not in the archive ({@code docs/pxar.md#extracting}). A "not found" error,
 * so the CLI exits with 3 (README.md, "Exit codes").
 */
public final class NothingMatchedException extends NotFoundException {
    private static final long serialVersionUID = 1L;

    /** @param resource the archive, for the message */
    public NothingMatchedException(String resource) {
        super(null, "no entry of " + resource + " matches the patterns: nothing restored");
    }
}
