/**
 * The server's small time-series store ({@code docs/ui.md#charts}), as PBS's RRD files:
 * per metric fixed-size rings at four resolutions (1 minute for a day, 30 minutes for a month,
 * 6 hours for a year, a week for ten years), average and maximum, so the files never grow;
 * sampled every minute, kept in memory and written to {@code <config>/rrdb/} every ten minutes
 * and when the server stops. The usage history of {@code status/datastore-usage} is kept ready
 * from it ({@link org.jpbs.server.rrd.UsageHistory}).
 */
package org.jpbs.server.rrd;
