/**
 * The HTTP layer: the Netty pipeline (TLS, HTTP/1.1, the PBS upgrade codec for
 * {@code proxmox-backup-protocol-v1} and {@code proxmox-backup-reader-protocol-v1}, HTTP/2 in
 * prior-knowledge mode after the {@code 101}), per-stream request handling with bodies handed
 * to worker threads, parameter parsing, the pluggable {@link org.jpbs.server.http.RestHandler}
 * and the one place errors become status codes ({@link org.jpbs.server.http.ErrorMapper}).
 * Spec {@code docs/protocol.md#transport}, {@code docs/protocol.md#backup-upgrade}, {@code docs/protocol.md#parameters-and-answers-inside-a-session}, {@code docs/api.md#conventions-as-pbs}.
 */
package org.jpbs.server.http;
