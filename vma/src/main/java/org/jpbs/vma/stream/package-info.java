/**
 * Compressed VMA streams ({@code docs/vma.md#vzdump-archives}): vzdump writes
 * {@code .vma.zst}, {@code .vma.gz} and {@code .vma.lzo} by piping the raw archive through
 * {@code zstd}, {@code gzip}/{@code pigz} or {@code lzop}. {@link org.jpbs.vma.stream.Compression}
 * reads and writes those framings with Java libraries (zstd-jni, {@code java.util.zip},
 * aircompressor's lzop streams) and recognises an input by its first bytes, so pipes work too.
 */
package org.jpbs.vma.stream;
