/**
 * PBS calendar events (the systemd-like schedule syntax of {@code gc-schedule}, {@code schedule}
 * and {@code prune-schedule}): a pure parser ({@link org.jpbs.core.calendar.CalendarEvent#parse})
 * and the computation of the next event after a point in time, in the server's time zone or in
 * UTC. No I/O, no clock: the caller passes the time. Syntax and semantics: {@code docs/jobs.md}.
 */
package org.jpbs.core.calendar;
