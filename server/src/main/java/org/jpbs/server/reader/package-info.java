/**
 * The reader (restore) protocol, spec {@code pbs-protocol.md} §3: file downloads from one
 * snapshot, chunk downloads limited to the digests of indexes downloaded in the session.
 */
package org.jpbs.server.reader;
