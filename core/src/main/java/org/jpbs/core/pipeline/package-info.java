/**
 * Bounded parallel work shared by every engine ({@code docs/design.md#pipeline}): a
 * {@link org.jpbs.core.pipeline.BoundedPipeline} keeps at most a window of tasks in flight on a
 * pool, completes them in any order (or in order with
 * {@link org.jpbs.core.pipeline.BoundedPipeline#inOrder}), and lets the first failure cancel the
 * rest and be the one rethrown; {@link org.jpbs.core.pipeline.Workers} makes the pools and
 * {@link org.jpbs.core.pipeline.ThreadBudget} shares one thread budget between many users.
 * Pure Java, no I/O of its own.
 */
package org.jpbs.core.pipeline;
