package org.jpbs.client.pxar.fs;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Tests that need a directory on a disk file system (xattrs, ACLs, chattr; skipped unless root). */
abstract class DiskDirTest {
    static Path dir;

    @BeforeAll
    static void makeDiskDirectory() throws Exception {
        dir = VectorTrees.diskDirectory();
    }

    @AfterAll
    static void removeDiskDirectory() throws Exception {
        VectorTrees.delete(dir);
    }
}
