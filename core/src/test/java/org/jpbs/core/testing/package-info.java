/**
 * Test utilities shared by every module through the core test-jar: {@link
 * org.jpbs.core.testing.SharedVectors}, the one way a test reaches the compatibility vectors in
 * {@code ../shared} (skip when absent, fail in CI).
 */
package org.jpbs.core.testing;
