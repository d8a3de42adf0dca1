package org.jpbs.testkit.faults;

/**
 * The process "died" at a crash point of a {@link FaultPlan}: thrown by the crashing operation
 * and by every file operation after it, so nothing the code under test does afterwards (clean-up
 * included) reaches the disk. A test then reopens the store with the real file system, as a
 * restarted process would.
 */
public final class SimulatedCrash extends InjectedIOException {
    /** @param what the operation and its file */
    public SimulatedCrash(String what) {
        super("simulated crash: " + what);
    }
}
