package org.jpbs.datastore.config;

import java.io.IOException;
import org.jpbs.datastore.snapshot.Datastore;

/**
 * Opens the datastore a {@link DatastoreConfig} describes: the one place that chooses the
 * backend ({@code docs/datastore-config.md#the-datastore-cache}). {@link #DIRECTORY} opens
 * every datastore as a directory; the composition roots ({@code jpbs serve}, the local
 * commands) pass one that also knows the {@code s3} backend ({@code docs/s3.md}).
 */
@FunctionalInterface
public interface DatastoreOpener {
    /** Opens every datastore as a directory datastore at its {@code path}. */
    DatastoreOpener DIRECTORY = c -> Datastore.open(c.path(), c.tuning().syncLevel());

    /**
     * Opens the datastore.
     *
     * @throws IOException if it cannot be opened (its path is gone, its bucket cannot be reached, …)
     */
    Datastore open(DatastoreConfig config) throws IOException;
}
