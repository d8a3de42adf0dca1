/**
 * Server administration commands that edit a jpbs server's config directory through
 * {@link org.jpbs.server.auth.AuthConfig}: {@code jpbs user add}, {@code jpbs user token create},
 * {@code jpbs acl update} (the jpbs counterparts of {@code proxmox-backup-manager user create |
 * generate-token} and {@code acl update}). Each takes {@code --config-dir DIR}, defaulting to
 * {@code $JPBS_CONFIG_DIR} or {@code ~/.config/jpbs}; a running server picks changes up on its
 * next request. Register {@link org.jpbs.cli.admin.UserCommand} and
 * {@link org.jpbs.cli.admin.AclCommand} in the top-level command.
 */
package org.jpbs.cli.admin;
