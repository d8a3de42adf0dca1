/**
 * Contract suites for the index formats ({@code .fidx}, {@code .didx}): round trip, the header
 * layout against the documented offsets, golden fixtures regenerated from a seed, and files PBS
 * itself wrote.
 */
package org.jpbs.testkit.index;
