/**
 * Content-defined (buzhash) and fixed-size chunkers ({@code docs/formats.md#chunker-for-dynamic-archives}). A chunker
 * is fed the stream in pieces of any size and reports cut points; its state carries across
 * calls, so the cuts do not depend on how the stream is split.
 */
package org.jpbs.core.chunker;
