package org.jpbs.cli.commands;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.UsageException;
import org.jpbs.cli.keys.CryptOptions;
import org.jpbs.cli.mount.ArchiveMount;
import org.jpbs.cli.mount.MountException;
import org.jpbs.cli.mount.Mounts;
import org.jpbs.client.engine.RestoreEngine;
import org.jpbs.client.mount.ArchiveTree;
import org.jpbs.client.mount.ImageTree;
import org.jpbs.client.mount.PxarTree;
import org.jpbs.core.pxar.IndexReadAt;
import org.jpbs.core.api.ArchiveName;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.manifest.FileEntry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs mount [options] SNAPSHOT ARCHIVE MOUNTPOINT} ({@code docs/pxar.md#mount}): shows
 * one archive of a snapshot read-only through FUSE, from a local datastore or a server, and
 * stays in the foreground until the file system is unmounted ({@code jpbs unmount},
 * {@code fusermount3 -u}) or the command is interrupted (Ctrl-C, SIGTERM: it unmounts).
 * A file archive shows its tree; an image archive one file that can be loop-mounted. Chunks are
 * fetched when read and kept in a chunk cache.
 */
@Command(name = "mount", sortOptions = false,
        description = {"Mount an archive of a snapshot read-only (FUSE) and wait until unmounted.", "",
            "SNAPSHOT is type/id/time, or a group type/id for its latest finished snapshot.",
            "A file archive (NAME.pxar, or a split NAME.mpxar) shows its directory tree",
            "with modes, owners, times, links and xattrs; an image archive (NAME.img)",
            "shows one file NAME.img that can be loop-mounted (mount -o loop,ro).",
            "MOUNTPOINT must be an empty directory. The command stays in the foreground",
            "until 'jpbs unmount MOUNTPOINT' or 'fusermount3 -u MOUNTPOINT', or Ctrl-C",
            "(which unmounts). Needs /dev/fuse and libfuse3 (Debian: fuse3).", ""})
public final class MountCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Mixin
    RepositoryOptions repo;

    @Option(names = "--ns", paramLabel = "NS", description = "Namespace of the snapshot (default: root).")
    String ns;

    @Option(names = "--cache-size", paramLabel = "MIB",
            description = "Chunk cache per archive in MiB (default: 64).")
    Integer cacheMib;

    @Mixin
    CryptOptions crypto;

    @Mixin
    OutputOptions output;

    @Parameters(index = "0", paramLabel = "SNAPSHOT", description = "type/id/time or type/id (latest).")
    String snapshot;

    @Parameters(index = "1", paramLabel = "ARCHIVE", description = "Archive name, e.g. root.pxar or disk.img.")
    String archive;

    @Parameters(index = "2", paramLabel = "MOUNTPOINT", description = "An empty directory.")
    Path mountpoint;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public MountCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        String serverName;
        try {
            serverName = ArchiveName.toServerName(archive);
        } catch (IllegalArgumentException e) {
            throw new UsageException("ARCHIVE: " + e.getMessage(), e);
        }
        if (serverName.endsWith(".blob")) {
            throw new UsageException("ARCHIVE: " + archive + " is a blob, not an index: restore it instead");
        }
        if (cacheMib != null && cacheMib < 1) {
            throw new UsageException("--cache-size must be at least 1, got " + cacheMib);
        }
        try {
            Mounts.checkMountpoint(mountpoint);
            Mounts.checkFuseDevice();
        } catch (MountException e) {
            throw e.badMountpoint() ? new UsageException(e.getMessage(), e) : e;
        }
        CryptConfig crypt = crypto.forRestore(ctx);
        return Snapshots.read(ctx, repo, ns, snapshot, source -> serve(new RestoreEngine(source), serverName, crypt));
    }

    /** Mounts the archive and waits until it is unmounted. */
    private int serve(RestoreEngine engine, String serverName, CryptConfig crypt) throws IOException, InterruptedException {
        String label = Snapshots.describe(engine.source().snapshot());
        ArchiveTree tree = open(engine, serverName, crypt, label);
        ArchiveMount mount;
        try {
            mount = ArchiveMount.mount(tree, mountpoint, "jpbs:" + label + "/" + serverName, w -> output.warn(ctx, w));
        } catch (MountException e) {
            tree.close();
            if (e.badMountpoint()) {
                throw new UsageException(e.getMessage(), e);
            }
            throw e;
        }
        Thread hook = Thread.ofPlatform().unstarted(mount::close); // Ctrl-C, SIGTERM: unmount
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            output.info(ctx, "mounted " + serverName + " of " + label + " read-only at " + mount.mountpoint()
                    + "; unmount with 'jpbs unmount " + mountpoint + "' or Ctrl-C");
            mount.awaitUnmount();
        } finally {
            mount.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs (close is idempotent)
            }
        }
        output.info(ctx, "unmounted " + mount.mountpoint());
        return 0;
    }

    /**
     * The tree to show: a file archive's ({@code .pxar.didx}, or split: {@code .mpxar.didx}
     * with its {@code .ppxar.didx}), else the index as one file.
     */
    private ArchiveTree open(RestoreEngine engine, String serverName, CryptConfig crypt, String label)
            throws IOException {
        long cache = (cacheMib == null ? IndexReadAt.DEFAULT_CACHE_BYTES >> 20 : cacheMib) << 20;
        var manifest = engine.source().manifest();
        String name = serverName;
        if (name.endsWith(".pxar.didx") && manifest.file(name).isEmpty()) {
            String split = name.substring(0, name.length() - ".pxar.didx".length()) + ".mpxar.didx";
            if (manifest.file(split).isPresent()) {
                name = split; // a backup made with --change-detection-mode metadata
            }
        }
        FileEntry entry = Snapshots.archive(manifest, label, archive, name);
        CryptConfig key = engine.keyFor(entry, crypt, label);
        IndexReadAt main = engine.randomAccess(engine.openIndex(name), key, cache, name);
        if (name.endsWith(".pxar.didx")) {
            return PxarTree.of(main, null);
        }
        if (name.endsWith(".mpxar.didx")) {
            String payload = name.substring(0, name.length() - ".mpxar.didx".length()) + ".ppxar.didx";
            try {
                engine.source().entry(payload);
                return PxarTree.of(main, engine.randomAccess(engine.openIndex(payload), key, cache, payload));
            } catch (IOException | RuntimeException e) {
                main.close();
                throw e;
            }
        }
        String file = name.substring(0, name.length() - 5); // disk.img.fidx -> disk.img
        int[] owner = owner(mountpoint);
        return new ImageTree(file, main, owner[0], owner[1], engine.source().snapshot().time());
    }

    /** The mount point's owner and group: the image file is shown as theirs. */
    private static int[] owner(Path dir) throws IOException {
        return new int[] {(Integer) Files.getAttribute(dir, "unix:uid"), (Integer) Files.getAttribute(dir, "unix:gid")};
    }
}
