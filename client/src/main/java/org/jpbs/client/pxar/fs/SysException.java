package org.jpbs.client.pxar.fs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** A failed system call: the operation, the file name it was given (may be empty) and the errno. */
public final class SysException extends IOException {
    private final int errno;

    SysException(String op, byte[] name, int errno) {
        super(op + (name.length > 0 ? " " + new String(name, StandardCharsets.UTF_8) : "") + ": " + Libc.strerror(errno));
        this.errno = errno;
    }

    /** A refusal with its own reason instead of the errno's text (the errno is kept for callers). */
    SysException(String op, byte[] name, int errno, String reason) {
        super(op + (name.length > 0 ? " " + new String(name, StandardCharsets.UTF_8) : "") + ": " + reason);
        this.errno = errno;
    }

    /** The errno value. */
    public int errno() {
        return errno;
    }
}
