/**
 * The datastore configuration ({@code datastore.cfg} in the PBS section-config syntax, {@code docs/datastore-config.md}): a lossless parser and writer ({@link
 * org.jpbs.datastore.config.SectionConfigText}), the typed view of one datastore with its tuning
 * and maintenance mode ({@link org.jpbs.datastore.config.DatastoreConfig}), atomic writes under a
 * config lock with a cross-process generation counter ({@link
 * org.jpbs.datastore.config.DatastoreConfigStore}, {@link org.jpbs.datastore.config.ConfigVersions})
 * and the in-process datastore cache that serves lookups without re-reading an unchanged config
 * ({@link org.jpbs.datastore.config.DatastoreCache}).
 */
package org.jpbs.datastore.config;
