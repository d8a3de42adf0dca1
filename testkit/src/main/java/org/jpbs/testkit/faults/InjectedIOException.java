package org.jpbs.testkit.faults;

import java.io.IOException;

/** An I/O error a {@link FaultPlan} injected. */
public class InjectedIOException extends IOException {
    /** @param what the operation, its number and its file */
    public InjectedIOException(String what) {
        super("injected I/O error: " + what);
    }
}
