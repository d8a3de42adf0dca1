package org.jpbs.cli.commands;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jpbs.core.api.SafeId;

/** The short host name, the default backup id (as {@code proxmox-backup-client} uses it). */
final class Hostnames {
    private Hostnames() {}

    /**
     * The host name up to the first dot, from {@code /proc/sys/kernel/hostname} (Linux) or the
     * JDK's local host lookup.
     *
     * @throws IllegalArgumentException if it is not a valid backup id (then {@code --backup-id} is needed)
     */
    static String shortName() {
        String name = null;
        try {
            name = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (Exception e) {
            // not Linux
        }
        if (name == null || name.isEmpty()) {
            try {
                name = InetAddress.getLocalHost().getHostName();
            } catch (Exception e) {
                name = "";
            }
        }
        int dot = name.indexOf('.');
        String s = dot > 0 ? name.substring(0, dot) : name;
        if (!SafeId.isValid(s)) {
            throw new IllegalArgumentException("the host name '" + name + "' is not a valid backup id; give --backup-id");
        }
        return s;
    }
}
