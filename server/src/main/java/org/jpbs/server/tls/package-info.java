/**
 * The server's TLS identity: a PEM certificate and key in the config directory (PBS names
 * {@code proxy.pem}/{@code proxy.key}), self-signed on first start, its SHA-256 fingerprint,
 * and the Netty TLS context (JDK engine, TLS 1.2/1.3, no ALPN; {@code docs/protocol.md#transport}).
 */
package org.jpbs.server.tls;
