package org.jpbs.datastore.jobs;

/**
 * A bad value of one job or remote property ({@link JobKind#checkValue}): the key and what is
 * wrong, so that the API answers PBS's {@code parameter verification failed - '<key>': <reason>}
 * and the command line {@code --<key>: <reason>}, each naming the key once. The message is
 * {@code "<key>: <reason>"}.
 */
public final class JobValueException extends IllegalArgumentException {
    private final String key;
    private final String reason;

    /** A bad value of {@code key}; {@code cause} may be null. */
    public JobValueException(String key, String reason, Throwable cause) {
        super(key + ": " + reason, cause);
        this.key = key;
        this.reason = reason;
    }

    /** The property. */
    public String key() {
        return key;
    }

    /** What is wrong, without the key. */
    public String reason() {
        return reason;
    }
}
