package org.jpbs.cli.commands;

import org.jpbs.cli.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jpbs.cli.local.BlockDevices;
import org.jpbs.core.FileFormats;
import org.jpbs.core.api.ArchiveName;
import org.jpbs.core.api.SafeId;

/**
 * One {@code NAME:PATH} argument of {@code jpbs backup}, checked before anything is written.
 * {@code NAME.img} is a raw image (fixed index, {@code docs/formats.md#fixed-index-fidx}) read from a
 * regular file or block device; {@code NAME.pxar} is a directory tree (file archive, a pxar
 * stream in a dynamic index, {@code docs/pxar.md#backup-and-restore}); any name not ending in
 * {@code .img}, {@code .pxar}, {@code .mpxar}, {@code .ppxar}, {@code .pcat1}, {@code .fidx} or
 * {@code .didx} is a blob (e.g. {@code qemu-server.conf}) read from a regular file of at most 128 MiB.
 *
 * @param cliName    the name as given ({@code disk.img})
 * @param serverName the file name in the snapshot ({@code disk.img.fidx})
 * @param path       the source file or directory
 * @param kind       what the archive is made of
 */
public record ArchiveSpec(String cliName, String serverName, Path path, Kind kind) {
    /** The three archive kinds of a backup. */
    public enum Kind {
        /** A raw image: fixed index. */
        IMAGE,
        /** A directory tree: pxar stream in a dynamic index, listed in the catalog. */
        TREE,
        /** A file: blob. */
        BLOB
    }

    /** True for an image. */
    public boolean image() {
        return kind == Kind.IMAGE;
    }

    /** File names a snapshot reserves for itself. */
    private static final Set<String> RESERVED = Set.of("index.json.blob", "client.log.blob", "rsa-encrypted.key.blob");

    /**
     * Parses and checks one argument.
     *
     * @throws IllegalArgumentException naming the argument: missing {@code ':'}, invalid or
     *         reserved name, unsupported kind, missing file, a directory, not readable, blob too large
     */
    public static ArchiveSpec parse(String arg) {
        int colon = arg.indexOf(':');
        if (colon < 0) {
            throw new UsageException("archive '" + arg + "': expected NAME:PATH (missing ':'), e.g. disk.img:/dev/sdb");
        }
        String name = arg.substring(0, colon);
        String file = arg.substring(colon + 1);
        String server;
        try {
            server = ArchiveName.toServerName(name);
        } catch (IllegalArgumentException e) {
            throw new UsageException("archive '" + arg + "': " + e.getMessage(), e);
        }
        if (!SafeId.isValid(name)) {
            throw new UsageException("archive '" + arg + "': invalid archive name '" + name
                    + "' (allowed: letters, digits, '_', and after the first character also '.' and '-')");
        }
        if (name.contains("..")) {
            throw new UsageException("archive '" + arg + "': invalid archive name '" + name + "' (must not contain '..')");
        }
        if (RESERVED.contains(server)) {
            throw new UsageException("archive '" + arg + "': the name " + server + " is reserved");
        }
        if (server.endsWith(".didx") && !name.endsWith(".pxar")) {
            throw new UsageException("archive '" + arg + "': only NAME.pxar makes a dynamic index (a directory tree);"
                    + " use NAME.img for images and any other name for files");
        }
        if (server.endsWith(".fidx") && !name.endsWith(".img")) {
            throw new UsageException("archive '" + arg + "': use NAME.img for an image");
        }
        boolean image = server.endsWith(".fidx");
        if (file.isEmpty()) {
            throw new UsageException("archive '" + arg + "': empty path");
        }
        Path p = Path.of(file);
        if (!Files.exists(p)) {
            throw new IllegalArgumentException("archive '" + name + "': " + file + ": no such file or directory");
        }
        if (server.endsWith(".didx")) {
            if (!Files.isDirectory(p)) {
                throw new IllegalArgumentException("archive '" + name + "': " + file + " is not a directory");
            }
            if (!Files.isReadable(p) || !Files.isExecutable(p)) {
                throw new IllegalArgumentException("archive '" + name + "': " + file + ": permission denied");
            }
            return new ArchiveSpec(name, server, p, Kind.TREE);
        }
        if (Files.isDirectory(p)) {
            throw new IllegalArgumentException("archive '" + name + "': " + file + " is a directory (expected "
                    + (image ? "an image file or block device)" : "a regular file)"));
        }
        if (image ? !(BlockDevices.isRegularFile(p) || BlockDevices.isBlockDevice(p)) : !BlockDevices.isRegularFile(p)) {
            throw new IllegalArgumentException("archive '" + name + "': " + file + " is not "
                    + (image ? "a regular file or block device" : "a regular file"));
        }
        if (!Files.isReadable(p)) {
            throw new IllegalArgumentException("archive '" + name + "': " + file + ": permission denied");
        }
        if (!image) {
            try {
                long size = Files.size(p);
                if (size > FileFormats.MAX_BLOB_SIZE) {
                    throw new IllegalArgumentException("archive '" + name + "': " + file + " is too large for a blob ("
                            + size + " bytes, at most " + FileFormats.MAX_BLOB_SIZE + ")");
                }
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException("archive '" + name + "': " + file + ": " + e.getMessage(), e);
            }
        }
        return new ArchiveSpec(name, server, p, image ? Kind.IMAGE : Kind.BLOB);
    }

    /**
     * Parses all arguments and rejects duplicate archive names.
     *
     * @throws IllegalArgumentException naming the first bad argument
     */
    public static List<ArchiveSpec> parseAll(List<String> args) {
        Set<String> seen = new HashSet<>();
        List<ArchiveSpec> specs = args.stream().map(ArchiveSpec::parse).toList();
        for (ArchiveSpec s : specs) {
            if (!seen.add(s.serverName())) {
                throw new UsageException("archive '" + s.cliName() + "' given twice (as " + s.serverName() + ")");
            }
        }
        return specs;
    }
}
