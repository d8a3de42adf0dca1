/**
 * The job scheduler of {@code jpbs serve} ({@code docs/jobs.md#the-scheduler}): every
 * {@link org.jpbs.server.jobs.ScheduledJob} (GC per datastore, prune and verify jobs, the
 * datastore's prune schedule; later sync jobs) runs as a task at its next calendar event, at most
 * one run per job at a time, a run missed while the server was down once after start, and a job
 * whose datastore is in maintenance is skipped with a logged reason. Job states persist in
 * {@code <config>/jobstates}. Knows nothing of the REST API; the concrete jobs are built in
 * {@code org.jpbs.server.api.ScheduledJobs}.
 */
package org.jpbs.server.jobs;
