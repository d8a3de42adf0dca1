/**
 * Commands that manage a server (jpbs or PBS) through its REST API, with the command names and
 * habits of proxmox-backup-client: {@code list}, {@code status}, {@code change-owner},
 * {@code namespace}, {@code task}, {@code login}/{@code logout}, the snapshot notes, protection,
 * forget and log upload, {@code benchmark} and {@code completion}; the network calls live in the
 * client module ({@code PbsClient}, {@code RemoteTasks}).
 */
package org.jpbs.cli.manage;
