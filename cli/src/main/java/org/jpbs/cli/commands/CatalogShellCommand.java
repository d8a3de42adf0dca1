package org.jpbs.cli.commands;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.UsageException;
import org.jpbs.client.engine.RestoreEngine;
import org.jpbs.client.pxar.shell.CatalogShell;
import org.jpbs.core.api.ArchiveName;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.pxar.ArchiveNames;
import org.jpbs.core.pxar.IndexReadAt;
import org.jpbs.core.pxar.PxarAccessor;
import org.jpbs.core.pxar.ReadAt;
import org.jpbs.core.pxar.catalog.CatalogReader;
import org.jpbs.core.snapshot.SnapshotSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs catalog shell SNAPSHOT ARCHIVE}: the interactive catalog shell of one file
 * archive ({@code docs/pxar.md#catalog-shell}) on a local datastore or a server. The catalog
 * is read whole (as the PBS client does); the archive is read by random access through its
 * goodbye tables, chunks fetched when needed and cached (a few dozen).
 */
@Command(name = "shell", description = {"Browse a file archive of the snapshot and restore parts of it.",
    "Reads commands from standard input, one per line (a pipe works too):",
    "ls, cd, pwd, find, stat, select, deselect, clear-selected, list-selected,",
    "restore-selected, restore, help, exit."})
public final class CatalogShellCommand extends CatalogCommand.Base {
    /** Decoded archive chunks kept in memory. */
    static final int CACHE_CHUNKS = 64;

    @Parameters(index = "1", paramLabel = "ARCHIVE", description = "The file archive, e.g. root.pxar.")
    String archive;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public CatalogShellCommand(CliContext ctx) {
        super(ctx);
    }

    @Override
    void print(CatalogReader catalog) {
        throw new IllegalStateException("the shell does not print a catalog");
    }

    @Override
    void use(RestoreEngine engine, CryptConfig crypt) throws IOException {
        String name;
        try {
            name = ArchiveName.toServerName(archive);
        } catch (IllegalArgumentException e) {
            throw new UsageException("ARCHIVE '" + archive + "': " + e.getMessage(), e);
        }
        if (!name.endsWith(".pxar.didx") && !name.endsWith(".mpxar.didx")) {
            throw new UsageException("ARCHIVE '" + archive + "': not a file archive (NAME.pxar)");
        }
        CatalogReader catalog = CatalogCommand.Base.read(engine, crypt);
        SnapshotSource src = engine.source();
        String label = Snapshots.describe(src.snapshot());
        ArchiveNames names;
        try {
            names = ArchiveNames.resolve(name, src.manifest());
        } catch (IllegalArgumentException e) {
            throw Snapshots.notInSnapshot(src.manifest(), label, archive); // never the internal file name
        }
        Snapshots.archive(src.manifest(), label, archive, names.metadata());
        ReadAt meta = open(engine, crypt, names.metadata());
        ReadAt payload = names.isSplit() ? open(engine, crypt, names.payload()) : null;
        // a catalog made from split archives names them by their metadata archive
        String inCatalog = names.isSplit() && src.manifest().file(CatalogCommand.CATALOG).isEmpty()
                ? names.metadata() : name;
        CatalogShell shell = new CatalogShell(catalog, inCatalog, new PxarAccessor(meta, payload), payload,
                ZoneId.systemDefault(), ctx.out(), ctx.err());
        boolean interactive = System.console() != null && System.console().isTerminal();
        shell.run(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), interactive);
    }

    private static ReadAt open(RestoreEngine engine, CryptConfig crypt, String name) throws IOException {
        SnapshotSource src = engine.source();
        CryptConfig key = engine.keyFor(src.entry(name), crypt, Snapshots.describe(src.snapshot()));
        return new IndexReadAt(src.openIndex(name), src, key, name, CACHE_CHUNKS);
    }
}
