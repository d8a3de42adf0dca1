/**
 * The few operating-system services the datastore needs beyond {@code java.nio}: access-time
 * updates that keep the modification time ({@code utimensat} with {@code UTIME_OMIT}),
 * {@code syncfs}, directory fsync and atomic "write temp file, rename" replacement. Native
 * calls go through the FFM API and every one has a pure-Java fallback.
 */
package org.jpbs.datastore.os;
