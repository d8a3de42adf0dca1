package org.jpbs.client.pxar.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real-pxar trees, rebuilt on disk, archived by jpbs: every byte equals the archive the
 * real {@code pxar} 3.1.2 made of the same tree (metadata, xattr order, ACLs, fcaps, chattr
 * flags, hardlinks, devices, fifo, socket, long and odd names, goodbye tables).
 */
class TreeArchiverVectorsTest {
    private static Path trees;

    @BeforeAll
    static void buildTrees() throws Exception {
        trees = VectorTrees.build();
    }

    @AfterAll
    static void removeTrees() throws Exception {
        VectorTrees.delete(trees);
    }

    @ParameterizedTest
    @ValueSource(strings = {"t1-basic", "t2-special", "t3-xattr-acl", "t4-names"})
    void archiveIsByteIdenticalToRealPxar(String tree) throws Exception {
        byte[] expected = Files.readAllBytes(SharedVectors.require("vectors/real-pxar/" + tree + ".pxar"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<String> warnings = new ArrayList<>();
        new TreeArchiver(TreeArchiver.Options.defaults(), null, warnings::add).archive(trees.resolve(tree), out);
        assertEquals(List.of(), warnings);
        assertArrayEquals(expected, out.toByteArray());
    }
}
