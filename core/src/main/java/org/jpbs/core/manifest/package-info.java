/**
 * The backup manifest {@code index.json.blob} ({@code docs/formats.md#manifest-indexjsonblob}): its fields,
 * the file list with sizes and checksums, byte-exact pretty JSON as the real client writes it,
 * and the canonical JSON form that manifest signatures cover.
 */
package org.jpbs.core.manifest;
