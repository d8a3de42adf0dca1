package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up cache's training run ({@code docs/design.md}, start-up): every step succeeds —
 * the local ones and the network round through an in-process {@code jpbs serve}. The launcher
 * does not show the training's output, so a step that
 * broke would otherwise only show as slower commands.
 */
class StartupTrainingTest {
    @TempDir
    Path dir;

    @Test
    void everyStepSucceeds() throws Exception {
        StartupTraining.Outcome o = StartupTraining.train(dir.resolve("training"));
        assertEquals(new StartupTraining.Outcome(0, 0), o);
    }
}
