package org.jpbs.cli.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.jpbs.cli.soak.Soak.Kind;
import org.jpbs.cli.soak.Soak.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bounded version of {@code bench/soak.sh} (issue 12): 15 s (up to 30 s on a loaded
 * machine, until a local backup, a server backup and a GC have each succeeded once; a kind of
 * process is only killed after one of its kind succeeded) of local and
 * server backups, GC with a zero cutoff, prune and verify in separate processes, with seeded
 * random kill -9s every 3 to 9 s.
 * No backup may be refused because of GC, nothing may fail except by being killed, and at the
 * end every visible snapshot verifies.
 */
class SoakTest {
    @TempDir
    Path tmp;

    @Test
    void backupsGcPruneAndVerifyInManyProcessesWithKills() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        long seed = Long.getLong("jpbs.soak.seed", 12L);
        Soak.Result r = new Soak(tmp, Duration.ofSeconds(15), Duration.ofSeconds(30), 3000, true, seed, java, cp,
                System.out::println).run();
        assertEquals(0, r.total(Outcome.REFUSED_BY_GC), r.table() + r.errors());
        assertEquals(0, r.total(Outcome.OTHER_ERROR), r.table() + r.errors());
        assertTrue(r.errors().isEmpty(), r.errors().toString());
        assertTrue(r.passed(), r.table() + r.finalVerify());
        assertTrue(r.runs(Kind.GC) > 0 && r.runs(Kind.LOCAL_BACKUP) > 0 && r.runs(Kind.SERVER_BACKUP) > 0, r.table());
        assertTrue(r.visibleSnapshots() > 0 || r.counts().get(Kind.LOCAL_BACKUP)[0] == 0, r.table() + r.finalVerify());
    }
}
