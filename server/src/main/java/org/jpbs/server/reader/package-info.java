/**
 * The reader (restore) protocol, {@code docs/protocol.md#reader-session}: file downloads from one
 * snapshot, chunk downloads limited to the digests of indexes downloaded in the session.
 */
package org.jpbs.server.reader;
