/**
 * Metrics ({@code docs/metrics.md}): the Prometheus text endpoint's registry
 * ({@link org.jpbs.server.metrics.ServerMetrics}, Micrometer) fed by the end of every task and
 * by datastore usage read at scrape time ({@link org.jpbs.server.metrics.DatastoreUsage}), and
 * PBS's metric-server push to InfluxDB over HTTP or UDP as configured in
 * {@code metricserver.cfg} ({@link org.jpbs.server.metrics.MetricServerConfig},
 * {@link org.jpbs.server.metrics.MetricPusher}, {@link org.jpbs.server.metrics.InfluxLines}).
 */
package org.jpbs.server.metrics;
