package org.jpbs.core.pxar;

import java.io.IOException;

/** A pxar stream that breaks the format: the message names the byte offset and what is wrong. */
public final class PxarFormatException extends IOException {
    public PxarFormatException(long offset, String what) {
        super("pxar archive: at byte " + offset + ": " + what);
    }
}
