package org.jpbs.core.api;

import java.util.regex.Pattern;

/**
 * The "safe id" rule PBS applies to backup ids and namespace components:
 * {@code [A-Za-z0-9_][A-Za-z0-9._\-]*}.
 */
public final class SafeId {
    private SafeId() {}

    private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._\\-]*");

    /** True if {@code s} is a non-empty safe id. */
    public static boolean isValid(String s) {
        return s != null && SAFE_ID.matcher(s).matches();
    }

    /**
     * Returns {@code value} if it is a safe id.
     *
     * @param what what the value is, for the message (e.g. "backup id")
     * @throws IllegalArgumentException naming the value otherwise
     */
    public static String check(String what, String value) {
        if (!isValid(value)) {
            throw new IllegalArgumentException("invalid " + what + " '" + value
                    + "' (allowed: letters, digits, '_', and after the first character also '.' and '-')");
        }
        return value;
    }
}
