/**
 * Progress counting and reporting for long runs: thread-safe byte counters that the engines
 * advance as chunks finish (in any order), a renderer that prints at most about two updates a
 * second to a stream (percent, bytes done of total, MiB/s, ETA), unit formatting, and the
 * end-of-run summaries of backups and restores.
 */
package org.jpbs.client.progress;
