/**
 * A small HTTPS client on Netty for the PBS protocols ({@code docs/protocol.md#transport}, {@code docs/protocol.md#backup-session}, {@code docs/protocol.md#reader-session}):
 * TLS with the JDK engine and certificate trust by the JDK trust store or a pinned SHA-256
 * fingerprint ({@link org.jpbs.client.http.TlsTrust}), plain HTTP/1.1 requests for the REST API
 * ({@link org.jpbs.client.http.HttpsConnection}), and the PBS upgrade from HTTP/1.1 to HTTP/2
 * (not h2c: no {@code HTTP2-Settings}, no stream 1) after which many requests run at once as
 * separate streams ({@link org.jpbs.client.http.H2Session}, {@link org.jpbs.client.http.H2Call}).
 */
package org.jpbs.client.http;
