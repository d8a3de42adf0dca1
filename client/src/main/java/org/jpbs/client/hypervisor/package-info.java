/**
 * The library a hypervisor's backup job uses (the role {@code proxmox-backup-qemu} plays for
 * QEMU, {@code docs/vma.md}, {@code docs/protocol.md#backup-session}, {@code docs/protocol.md#reader-session}, {@code docs/network-client.md#hypervisor-library-orgjpbsclienthypervisor}): a
 * {@link org.jpbs.client.hypervisor.BackupSession} takes the disks' data chunk by chunk from many
 * threads at once (full, or incremental with a dirty bitmap on top of the previous snapshot) plus
 * configuration files, and writes one snapshot; a {@link org.jpbs.client.hypervisor.RestoreSession}
 * reads images back at any offset or restores them whole with parallel chunk fetches.
 */
package org.jpbs.client.hypervisor;
