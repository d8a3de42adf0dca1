/**
 * {@code jpbs prune-job|verify-job|sync-job|remote list|create|update|remove} and
 * {@code run} on the job files of the config directory ({@code docs/jobs.md#commands}).
 */
package org.jpbs.cli.jobs;
