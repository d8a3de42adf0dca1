package org.jpbs.server.notify;

/**
 * A bad value of one notification property ({@link NotificationEdits}): {@link #key()} and {@link #reason()}. A {@link #schema()}
 * error is what PBS's parameter schema refuses (the API answers
 * {@code "parameter verification failed - '<key>': <reason>"}); the others are PBS's own
 * checks, answered with the reason alone. The command line says {@code --<key>: <reason>}.
 */
public final class ParameterException extends IllegalArgumentException {
    private final String key;
    private final String reason;
    private final boolean schema;

    private ParameterException(String key, String reason, boolean schema) {
        super(schema ? "parameter verification failed - '" + key + "': " + reason : reason);
        this.key = key;
        this.reason = reason;
        this.schema = schema;
    }

    static ParameterException schema(String key, String reason) {
        return new ParameterException(key, reason, true);
    }

    static ParameterException check(String key, String reason) {
        return new ParameterException(key, reason, false);
    }

    /** The property. */
    public String key() {
        return key;
    }

    /** What is wrong, without the property's name. */
    public String reason() {
        return reason;
    }

    /** True for a schema error (PBS's "parameter verification failed"). */
    public boolean schema() {
        return schema;
    }
}
