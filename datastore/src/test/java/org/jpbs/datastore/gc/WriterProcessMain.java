package org.jpbs.datastore.gc;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.SnapshotWriter;

/**
 * A backup writer in a second JVM for {@link CrossProcessGcTest}, driven line by line over
 * stdin; every command answers exactly one line on stdout (or {@code ERR <message>}):
 * <ul>
 * <li>{@code begin <type/id> <time> [<base time>]}: starts a snapshot (and locks its base) → {@code BEGUN}</li>
 * <li>{@code reuse <seed>}: touches chunk {@code seed} as a known chunk → {@code TOUCHED true|false}</li>
 * <li>{@code insert <seed>}: inserts chunk {@code seed} → {@code INSERTED dup|new}</li>
 * <li>{@code commit}: writes one fixed index over the chunks reused or inserted, commits → {@code COMMITTED}</li>
 * <li>{@code abort}: aborts → {@code ABORTED}</li>
 * </ul>
 * The process exits when stdin closes.
 */
public final class WriterProcessMain {
    private WriterProcessMain() {}

    public static void main(String[] args) throws Exception {
        Datastore ds = Datastore.open(Path.of(args[0]));
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        SnapshotWriter w = null;
        List<Digest> used = new ArrayList<>();
        out.println("READY");
        String line;
        while ((line = in.readLine()) != null) {
            String[] a = line.trim().split(" ");
            try {
                switch (a[0]) {
                    case "begin" -> {
                        BackupGroupRef g = GcFixture.group(a[1]);
                        w = ds.beginSnapshot(new BackupSnapshotRef(g, Long.parseLong(a[2])), GcFixture.OWNER);
                        if (a.length > 3) {
                            w.lockBase(new BackupSnapshotRef(g, Long.parseLong(a[3])));
                        }
                        used.clear();
                        out.println("BEGUN");
                    }
                    case "reuse" -> {
                        Digest d = GcFixture.digest(Long.parseLong(a[1]));
                        boolean ok = ds.chunkStore().touch(d);
                        if (ok) {
                            used.add(d);
                        }
                        out.println("TOUCHED " + ok);
                    }
                    case "insert" -> {
                        long seed = Long.parseLong(a[1]);
                        Digest d = GcFixture.digest(seed);
                        boolean dup = ds.chunkStore().insert(d, GcFixture.blob(seed)).duplicate();
                        used.add(d);
                        out.println("INSERTED " + (dup ? "dup" : "new"));
                    }
                    case "commit" -> {
                        w.addFixedIndex("drive.img.fidx", GcFixture.index(used));
                        BackupSnapshotRef ref = w.ref();
                        w.commit(new BackupManifest(ref.group().type(), ref.group().id(), ref.time()));
                        w = null;
                        out.println("COMMITTED");
                    }
                    case "abort" -> {
                        w.close();
                        w = null;
                        out.println("ABORTED");
                    }
                    default -> out.println("ERR unknown command " + a[0]);
                }
            } catch (Exception e) {
                out.println("ERR " + e.getMessage().replace('\n', ' '));
            }
        }
    }
}
