/**
 * The datastore tuning values that garbage collection, prune and verify read ({@code docs/datastore-config.md#datastorecfg} {@code tuning}: {@code gc-atime-safety-check},
 * {@code gc-atime-cutoff}, {@code gc-cache-capacity}, {@code chunk-order}, plus jpbs's
 * {@code gc-chunk-metadata-prefetch} and a thread count). For now they come from defaults and
 * command line options; parsing them from a PBS {@code datastore.cfg} is a later step.
 */
package org.jpbs.datastore.tuning;
