/**
 * Names of the datastore's objects ({@code docs/formats.md#datastore-layout}, {@code docs/formats.md#manifest-indexjsonblob}): backup types,
 * namespaces, groups, snapshots with their RFC 3339 UTC times, and archive file names, each
 * validated on construction with an {@link java.lang.IllegalArgumentException} naming the
 * offending value.
 */
package org.jpbs.core.api;
