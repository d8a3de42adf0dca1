package org.jpbs.cli;

/**
 * A usage error found by a command itself, after picocli parsed the line: an option or argument
 * value that is malformed or out of range, options that exclude each other, or a malformed
 * environment variable standing for an option ({@code PBS_REPOSITORY},
 * {@code PBS_RESTORE_FETCH_CONCURRENCY}, ...). {@link ErrorReporter} prints it like picocli's
 * own parameter errors, one line naming the option or variable, and exits with status 2.
 * Errors found while running (missing files, refused operations) stay plain exceptions, status 1.
 */
public class UsageException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** @param message one line naming the option, argument or variable and what is wrong */
    public UsageException(String message) {
        super(message);
    }

    /** @param message one line naming the option, argument or variable and what is wrong */
    public UsageException(String message, Throwable cause) {
        super(message, cause);
    }
}
