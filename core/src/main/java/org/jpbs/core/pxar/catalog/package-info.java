/**
 * The backup catalog {@code catalog.pcat1} ({@code docs/pxar.md#catalog}): a compact list of
 * every directory's entries, written while a pxar archive is made and uploaded as
 * {@code catalog.pcat1.didx}, read to list and search a snapshot without its archives.
 */
package org.jpbs.core.pxar.catalog;
