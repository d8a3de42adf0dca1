/**
 * Notifications as PBS sends them ({@code docs/notifications.md}): the targets and matchers of
 * {@code notifications.cfg} with their secrets in {@code notifications-priv.cfg}
 * ({@link org.jpbs.server.notify.NotificationConfig}), matchers on severity, metadata fields and
 * time ({@link org.jpbs.server.notify.MatchRules}), targets that send mail (sendmail, SMTP:
 * {@link org.jpbs.server.notify.MailSender}) or HTTP requests (webhook, gotify:
 * {@link org.jpbs.server.notify.HttpSender}), the dispatcher
 * ({@link org.jpbs.server.notify.Notifier}) and the bridge from the end of a task
 * ({@link org.jpbs.server.notify.TaskNotifications}).
 */
package org.jpbs.server.notify;
