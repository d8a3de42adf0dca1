/**
 * Include/exclude patterns as the PBS client takes them ({@code --exclude}, {@code .pxarexclude}
 * files, restore {@code --pattern}): gitignore-like globs over raw path bytes
 * ({@code docs/pxar.md#exclude-patterns}).
 */
package org.jpbs.core.pxar.pattern;
