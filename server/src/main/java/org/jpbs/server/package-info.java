/**
 * The jpbs server: {@link org.jpbs.server.JpbsServer} serves HTTPS on one port (PBS: 8007),
 * the REST API over HTTP/1.1 and the backup and reader protocols over HTTP/2 after the PBS
 * upgrade ({@code docs/protocol.md#transport}, {@code docs/protocol.md#backup-session}, {@code docs/protocol.md#reader-session}), configured by a
 * {@link org.jpbs.server.ServerConfig}; {@link org.jpbs.server.ServerContext} is what its
 * sessions share.
 */
package org.jpbs.server;
