/**
 * The chunk store: {@code <datastore>/.chunks/XXXX/<64-hex digest>} files holding DataBlobs,
 * its creation with the 65,536 prefix directories, the PBS insert rules (duplicates, empty
 * files, encrypted versus plain copies), reads and access-time touches ({@code docs/formats.md#chunk-store-chunks}).
 */
package org.jpbs.datastore.chunks;
