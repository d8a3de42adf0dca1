package org.jpbs.client.pxar.shell;

import java.io.IOException;

/** A shell command that failed; the shell prints {@code Error: <message>} and goes on. */
final class ShellException extends IOException {
    ShellException(String message) {
        super(message);
    }
}
