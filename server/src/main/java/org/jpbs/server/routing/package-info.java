/**
 * The REST routing table ({@code docs/api.md}, {@code docs/design.md}): {@link
 * org.jpbs.server.routing.RouteTable} holds every endpoint once ({@link
 * org.jpbs.server.routing.Endpoint}: method, path template, {@link org.jpbs.server.routing.Param
 * parameters} with types and limits, {@link org.jpbs.server.routing.Permission}, answer,
 * handler); dispatch, parameter checking ({@link org.jpbs.server.routing.ApiParams}, PBS's
 * schema texts) and the generated endpoint tables of {@code docs/api.md} ({@link
 * org.jpbs.server.routing.ApiDocs}) come from it. Knows nothing of datastores or users: the
 * table itself is {@code org.jpbs.server.api.ApiRoutes}.
 */
package org.jpbs.server.routing;
