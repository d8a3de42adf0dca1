package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The repository rule: nothing given is ignored; a bare name is a datastore on localhost:8007. */
class RepositoryRuleCliTest {
    @TempDir
    Path home;

    private CliRunner.Result run(Map<String, String> env, String... args) {
        return new CliRunner(home, env).run(args);
    }

    private Path defaultStore() {
        return home.resolve(".local/share/jpbs/datastore");
    }

    @Test
    void bareNameInEnvironmentIsTheLocalServer() {
        CliRunner.Result r = run(Map.of("PBS_REPOSITORY", "store1"), "snapshot", "list");
        assertEquals(1, r.exit(), r.all());
        assertTrue(r.err().contains("root@pam on localhost:8007"), r.all());
        assertFalse(Files.exists(defaultStore()), "the default datastore must not be used");
    }

    @Test
    void bareNameInOptionIsTheLocalServer() {
        CliRunner.Result r = run(Map.of(), "snapshot", "list", "--repository", "store1");
        assertEquals(1, r.exit(), r.all());
        assertTrue(r.err().contains("root@pam on localhost:8007"), r.all());
    }

    @Test
    void invalidBareNameIsRefusedNamingTheSource() {
        CliRunner.Result r = run(Map.of("PBS_REPOSITORY", "ds"), "snapshot", "list");
        assertEquals(2, r.exit(), r.all());
        assertTrue(r.err().startsWith("jpbs: error: PBS_REPOSITORY: invalid repository 'ds'"), r.all());
        assertTrue(r.err().contains("./ds"), r.all());
        assertFalse(Files.exists(defaultStore()));
    }

    @Test
    void pathsAreLocalAndTildeIsExpanded() {
        CliRunner.Result r = run(Map.of("PBS_REPOSITORY", "~/stores/a"), "snapshot", "list");
        assertEquals(1, r.exit(), r.all());
        assertTrue(r.err().contains("repository " + home.resolve("stores/a") + " does not exist"), r.all());
        r = run(Map.of(), "snapshot", "list", "--repository", "~");
        assertEquals(1, r.exit(), r.all());
        assertTrue(r.err().contains("not a datastore: " + home), r.all());
        r = run(Map.of(), "snapshot", "list", "--repository", "~other/x");
        assertEquals(2, r.exit(), r.all());
        assertTrue(r.err().contains("--repository: '~other/x': ~USER is not expanded"), r.all());
        r = run(Map.of(), "snapshot", "list", "--repository", "relative/dir");
        assertEquals(1, r.exit(), r.all());
        assertTrue(r.err().contains("repository relative/dir does not exist"), r.all());
    }

    @Test
    void helpStatesTheRule() {
        CliRunner.Result r = run(Map.of(), "snapshot", "list", "--help");
        assertEquals(0, r.exit(), r.all());
        assertTrue(r.out().replaceAll("\\s+", "").contains("abarename(store1)isroot@pam@localhost:8007:store1"), r.out());
    }
}
