package org.jpbs.cli.commands;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.keys.CryptOptions;
import org.jpbs.client.engine.RestoreEngine;
import org.jpbs.client.progress.ProgressListener;
import org.jpbs.core.pxar.IndexReadAt;
import org.jpbs.core.pxar.catalog.ArchiveCatalog;
import org.jpbs.core.pxar.catalog.CatalogDump;
import org.jpbs.core.pxar.catalog.CatalogReader;
import org.jpbs.core.pxar.catalog.CatalogWriter;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.FileEntry;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs catalog dump|find|shell}: the file archives' catalog ({@code catalog.pcat1.didx}) of a
 * snapshot, read through the {@link RestoreEngine} from a local datastore or a server and
 * printed as the PBS client prints it ({@code docs/pxar.md#catalog}).
 */
@Command(name = "catalog", description = "List or search the file archives of a snapshot (its catalog).",
        subcommands = {CatalogCommand.Dump.class, CatalogCommand.Find.class, CatalogShellCommand.class})
public final class CatalogCommand implements Callable<Integer> {
    /** The catalog's name in a snapshot. */
    static final String CATALOG = "catalog.pcat1.didx";

    @Mixin
    HelpOption help;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    /** What both subcommands share: where the snapshot is, and the key. */
    abstract static class Base implements Callable<Integer> {
        @Mixin
        HelpOption help;

        @Mixin
        RepositoryOptions repo;

        @Option(names = "--ns", paramLabel = "NS", description = "Namespace of the snapshot (default: root).")
        String ns;

        @Mixin
        CryptOptions crypto;

        @Parameters(index = "0", paramLabel = "SNAPSHOT", description = "type/id/time or type/id (latest).")
        String snapshot;

        final CliContext ctx;

        Base(CliContext ctx) {
            this.ctx = ctx;
        }

        /** Prints from the decoded catalog. */
        abstract void print(CatalogReader catalog) throws IOException;

        /** What the command does with the open snapshot: by default prints from its catalog. */
        void use(RestoreEngine engine, CryptConfig crypt) throws IOException {
            print(read(engine, crypt));
        }

        @Override
        public Integer call() throws Exception {
            CryptConfig crypt = crypto.forRestore(ctx);
            Snapshots.read(ctx, repo, ns, snapshot, source -> {
                use(new RestoreEngine(source), crypt);
                return null;
            });
            return 0;
        }

        /**
         * The snapshot's catalog; without one (split archives), the catalog their metadata
         * archives make, in name order ({@code docs/pxar.md#catalog-of-split-archives}).
         */
        static CatalogReader read(RestoreEngine engine, CryptConfig crypt) throws IOException {
            String label = Snapshots.describe(engine.source().snapshot());
            java.util.Optional<FileEntry> catalog = engine.source().manifest().file(CATALOG);
            if (catalog.isEmpty()) {
                return fromMetadataArchives(engine, crypt, label);
            }
            FileEntry entry = catalog.get();
            CryptConfig key = engine.keyFor(entry, crypt, label);
            IndexFile index = engine.openIndex(CATALOG);
            ByteArrayOutputStream data = new ByteArrayOutputStream();
            engine.restore(index, key, data, CATALOG, ProgressListener.NONE);
            return new CatalogReader(data.toByteArray());
        }
    }

    private static CatalogReader fromMetadataArchives(RestoreEngine engine, CryptConfig crypt, String label)
            throws IOException {
        List<FileEntry> archives = engine.source().manifest().files().stream()
                .filter(f -> f.filename().endsWith(".mpxar.didx"))
                .sorted(java.util.Comparator.comparing(FileEntry::filename)).toList();
        if (archives.isEmpty()) {
            throw new IllegalArgumentException("snapshot " + label + " has no catalog (" + CATALOG
                    + "): it holds no file archive");
        }
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        CatalogWriter writer = new CatalogWriter(data);
        for (FileEntry f : archives) {
            CryptConfig key = engine.keyFor(f, crypt, label);
            try (IndexReadAt r = engine.randomAccess(engine.openIndex(f.filename()), key,
                    IndexReadAt.DEFAULT_CACHE_BYTES, f.filename())) {
                ArchiveCatalog.add(writer, f.filename().getBytes(StandardCharsets.UTF_8),
                        new BufferedInputStream(r.streamFrom(0), 1 << 16));
            }
        }
        writer.finish();
        return new CatalogReader(data.toByteArray());
    }

    /** {@code jpbs catalog dump SNAPSHOT}. */
    @Command(name = "dump", description = {"Print every entry of the snapshot's file archives.",
        "One line per entry: TYPE \"PATH\", files with size and modification time."})
    public static final class Dump extends Base {
        /** Creates the command; {@code ctx} gives its streams and environment. */
        public Dump(CliContext ctx) {
            super(ctx);
        }

        @Override
        void print(CatalogReader catalog) throws IOException {
            CatalogDump.dump(catalog, ZoneId.systemDefault(), ctx.out()::println);
        }
    }

    /** {@code jpbs catalog find SNAPSHOT GLOB...}. */
    @Command(name = "find", description = {"Print the paths in the snapshot's file archives that match GLOB.",
        "Paths are /NAME.pxar.didx/...; GLOB is gitignore-like ('!' excludes; several: the last match decides)."})
    public static final class Find extends Base {
        @Parameters(index = "1..*", arity = "1..*", paramLabel = "GLOB", description = "Pattern, e.g. *.conf or /root.pxar.didx/etc/**.")
        List<String> globs;

        /** Creates the command; {@code ctx} gives its streams and environment. */
        public Find(CliContext ctx) {
            super(ctx);
        }

        @Override
        void print(CatalogReader catalog) throws IOException {
            for (byte[] p : CatalogDump.find(catalog, TreeOptions.patterns("GLOB", globs, true))) {
                ctx.out().println(CatalogDump.quote(p));
            }
        }
    }
}
