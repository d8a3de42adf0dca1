package org.jpbs.core.pxar;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Random;
import org.jpbs.core.pxar.catalog.CatalogReader;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.api.Test;

/**
 * Seeded corruption of real archives and catalogs: decoding, random access and catalog
 * reading either succeed or fail with an IOException (format, end of stream) — never with
 * another exception, a hang or an attempt to allocate what a size field claims.
 */
class PxarCorruptionTest {
    @Test
    void corruptArchivesFailCleanly() throws Exception {
        Random rnd = new Random(42);
        for (String t : new String[] {"t1-basic", "t2-special", "t3-xattr-acl", "t4-names"}) {
            byte[] a = Files.readAllBytes(SharedVectors.require("vectors/real-pxar/" + t + ".pxar"));
            for (int round = 0; round < 150; round++) {
                byte[] bad = a.clone();
                int flips = 1 + rnd.nextInt(4);
                for (int i = 0; i < flips; i++) {
                    int pos = rnd.nextInt(Math.min(bad.length, 4000));
                    bad[pos] = (byte) (rnd.nextBoolean() ? rnd.nextInt(256) : bad[pos] ^ (1 << rnd.nextInt(8)));
                }
                if (rnd.nextInt(4) == 0) {
                    bad = java.util.Arrays.copyOf(bad, rnd.nextInt(bad.length));
                }
                decodeExpectingOnlyIoErrors(t, round, bad);
            }
        }
    }

    @Test
    void corruptCatalogsFailCleanly() throws Exception {
        byte[] chunk = Files.readAllBytes(SharedVectors.require(
                "vectors/real-client/dir-plain/chunks/2d246b43e1a9ac2b57d98549d4bc6218f8f587954407eacd859acdbdf176a578"));
        byte[] c = org.jpbs.core.blob.DataBlob.wrap(chunk, "c").decode("c", -1, null);
        Random rnd = new Random(7);
        for (int round = 0; round < 2000; round++) {
            byte[] bad = c.clone();
            bad[rnd.nextInt(bad.length)] = (byte) rnd.nextInt(256);
            try {
                CatalogReader r = new CatalogReader(bad);
                org.jpbs.core.pxar.catalog.CatalogDump.dump(r, java.time.ZoneOffset.UTC, line -> { });
            } catch (IOException expected) {
                // refused
            } catch (RuntimeException | StackOverflowError e) {
                fail("catalog round " + round + ": " + e, e);
            }
        }
    }

    private static void decodeExpectingOnlyIoErrors(String t, int round, byte[] bad) {
        try (PxarDecoder d = new PxarDecoder(new ByteArrayInputStream(bad))) {
            byte[] buf = new byte[4096];
            while (d.next() != null) {
                while (d.read(buf, 0, buf.length) > 0) {
                    // drain contents
                }
            }
        } catch (IOException expected) {
            // refused
        } catch (RuntimeException | OutOfMemoryError e) {
            fail(t + " round " + round + ": " + e, e);
        }
        try {
            PxarAccessor acc = new PxarAccessor(ReadAt.of(bad));
            PxarAccessor.Node root = acc.root();
            for (PxarAccessor.Node n : acc.list(root)) {
                acc.child(root, n.entry().name());
            }
        } catch (IOException expected) {
            // refused
        } catch (RuntimeException | OutOfMemoryError e) {
            fail(t + " accessor round " + round + ": " + e, e);
        }
    }
}
