package org.jpbs.server.jobs;

/**
 * PBS's {@code JobScheduleStatus} of one job: the fields {@code next-run},
 * {@code last-run-state}, {@code last-run-upid} and {@code last-run-endtime} of the
 * {@code admin/prune|verify|sync} listings; each may be absent (null).
 *
 * @param nextRun        next scheduled run (seconds), null if none
 * @param lastRunState   end state text of the last run ({@code OK}, {@code WARNINGS: n}, the error), null if running or never run
 * @param lastRunUpid    UPID of the last run, null if never run
 * @param lastRunEndtime end of the last run (seconds), null if running or never run
 */
public record JobStatus(Long nextRun, String lastRunState, String lastRunUpid, Long lastRunEndtime) {}
