/**
 * The web interface ({@code docs/ui.md}): static pages, ES modules and styles kept in the
 * jar's resources, served on the server's port next to the API. The pages use only the public
 * {@code /api2/json} API (ticket cookie and CSRF token as PBS); nothing here answers API calls.
 */
package org.jpbs.server.webui;
