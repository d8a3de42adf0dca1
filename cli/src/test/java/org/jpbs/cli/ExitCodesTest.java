package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.ExecutionException;
import org.jpbs.client.http.HttpStatusException;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.AlreadyExistsException;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.errors.MissingChunkException;
import org.jpbs.core.errors.NotFoundException;
import org.jpbs.core.errors.OwnerMismatchException;
import org.jpbs.core.errors.ProtectedException;
import org.jpbs.core.errors.UnsupportedFormatException;
import org.jpbs.datastore.lock.LockedException;
import org.junit.jupiter.api.Test;

/** The exit code of a failure comes from its type, never its text ({@link ExitCodes}, README.md "Exit codes"). */
class ExitCodesTest {
    @Test
    void eachTypedFailureHasItsCode() {
        assertEquals(3, ExitCodes.of(new NotFoundException(null, "snapshot vm/1/x not found")));
        assertEquals(4, ExitCodes.of(new AlreadyExistsException(null, "backup snapshot vm/1/x already exists")));
        assertEquals(5, ExitCodes.of(new LockedException("backup group vm/1", "another operation (backup)")));
        assertEquals(6, ExitCodes.of(new CorruptDataException("x.fidx", 12, "bad checksum")));
        assertEquals(6, ExitCodes.of(new UnsupportedFormatException("x.blob", 1L, "unknown blob magic 0000000000000001")));
        assertEquals(6, ExitCodes.of(new MissingChunkException(Digest.sha256(new byte[] {1}), null)));
        assertEquals(7, ExitCodes.of(new OwnerMismatchException("a@pbs", "b@pbs")));
        assertEquals(7, ExitCodes.of(new HttpStatusException("GET /x", 401, "authentication failed")));
        assertEquals(7, ExitCodes.of(new HttpStatusException("GET /x", 403, "permission check failed")));
        assertEquals(8, ExitCodes.of(new ProtectedException("vm/1/x")));
        assertEquals(2, ExitCodes.of(new UsageException("--workers: must be at least 1")));
    }

    @Test
    void untypedFailuresAreOneWhateverTheirText() {
        assertEquals(1, ExitCodes.of(new IOException("snapshot vm/1/x not found")));
        assertEquals(1, ExitCodes.of(new IOException("backup group vm/1 is locked by another operation")));
        assertEquals(1, ExitCodes.of(new HttpStatusException("GET /x", 400, "backup owner check failed (a != b)")));
        assertEquals(1, ExitCodes.of(new NoSuchFileException("/tmp/missing")));
        assertEquals(1, ExitCodes.of(new IllegalStateException("bug")));
    }

    @Test
    void wrappedFailuresCountByTheirCause() {
        assertEquals(5, ExitCodes.of(new UncheckedIOException(new LockedException("datastore /d", "another process"))));
        assertEquals(3, ExitCodes.of(new ExecutionException(new IOException("restore failed",
                new NotFoundException(null, "archive 'x.img' not found in snapshot vm/1/x")))));
    }
}
