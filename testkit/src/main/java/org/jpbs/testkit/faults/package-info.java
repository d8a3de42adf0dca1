/**
 * A fault-injecting file layer for backup, verify and GC tests: a seeded
 * {@link org.jpbs.testkit.faults.FaultPlan} (I/O errors, crash points, short writes, bit flips
 * on read) applied by {@link org.jpbs.testkit.faults.FaultyFileOps} (the chunk store's
 * {@link org.jpbs.datastore.os.FileOps} seam) and {@link org.jpbs.testkit.faults.FaultyGcFs}
 * (garbage collection's {@link org.jpbs.datastore.gc.GcFs}); {@link org.jpbs.testkit.faults.BitFlips}
 * damages buffers and files on disk.
 */
package org.jpbs.testkit.faults;
