/**
 * Encryption keys on the command line: where key files live (PBS's default
 * {@code ~/.config/proxmox-backup/encryption-key.json}), how passphrases are read (PBS's
 * environment variables, a file descriptor, a terminal prompt), the {@code --keyfile},
 * {@code --crypt-mode} and {@code --master-pubkey-file} options of backup and restore, and the
 * {@code jpbs key ...} commands.
 */
package org.jpbs.cli.keys;
