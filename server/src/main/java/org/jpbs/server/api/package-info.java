/**
 * The jpbs REST API under {@code /api2/json} ({@code docs/api.md}): version, ping,
 * ticket login, the datastore list and the per-datastore listing, download and forget calls,
 * with PBS parameter validation texts, permission rules and JSON shapes (checked against the
 * answers of a real PBS 3.1.2 in {@code vectors/real-pbs/api/}). Every endpoint is declared once in
 * the routing table {@link org.jpbs.server.api.ApiRoutes} ({@code docs/design.md#rest-routing-table}). Entry point:
 * {@link org.jpbs.server.api.JpbsRestHandler}, plugged into
 * {@link org.jpbs.server.JpbsServer#start(org.jpbs.server.ServerConfig, org.jpbs.server.auth.Authenticator, org.jpbs.server.http.RestHandler)}.
 */
package org.jpbs.server.api;
