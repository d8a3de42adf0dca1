/**
 * Exports of a part of a pxar archive as other archive formats, for the content API's
 * {@code pxar-file-download} of a directory ({@code docs/api.md#file-archives-get-catalog-get-pxar-file-download}): a zip
 * ({@link org.jpbs.core.pxar.export.ZipExport}) or a zstd-compressed tar
 * ({@link org.jpbs.core.pxar.export.TarExport}), streamed while the archive is read through its
 * goodbye tables ({@link org.jpbs.core.pxar.PxarAccessor}): only the directory's range of the
 * archive is read.
 */
package org.jpbs.core.pxar.export;
