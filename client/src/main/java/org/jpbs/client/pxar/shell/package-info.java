/**
 * The interactive catalog shell ({@code jpbs catalog shell}, {@code docs/pxar.md#catalog-shell}),
 * as the PBS client's: navigate a snapshot's catalog, look at entries in the archive, select
 * and restore parts of it. Restores read only what they need through the archive's goodbye
 * tables ({@link org.jpbs.core.pxar.SelectiveSource}).
 */
package org.jpbs.client.pxar.shell;
