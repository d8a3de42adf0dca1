package org.jpbs.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletionException;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.AlreadyExistsException;
import org.jpbs.core.errors.MissingChunkException;
import org.jpbs.core.errors.NotFoundException;
import org.jpbs.core.errors.OwnerMismatchException;
import org.jpbs.core.errors.ProtectedException;
import org.jpbs.core.errors.UnsupportedFormatException;
import org.jpbs.datastore.lock.LockedException;
import org.junit.jupiter.api.Test;

/** The one mapping of exceptions to HTTP status and text ({@link ErrorMapper}). */
class ErrorMapperTest {
    private static String mapped(Throwable t) {
        ApiException a = ErrorMapper.map(t);
        return a.status() + " " + a.getMessage();
    }

    @Test
    void typedRefusalsAre400WithTheirText() {
        assertEquals("400 backup owner check failed (a@pbs != b@pbs)", mapped(new OwnerMismatchException("a@pbs", "b@pbs")));
        assertEquals("400 backup snapshot vm/1/2020-01-01T00:00:00Z already exists",
                mapped(new AlreadyExistsException(null, "backup snapshot vm/1/2020-01-01T00:00:00Z already exists")));
        assertEquals("400 namespace not found", mapped(new NotFoundException(null, "namespace not found")));
        assertEquals("400 cannot remove protected snapshot vm/1/x", mapped(new ProtectedException("vm/1/x")));
        assertEquals("400 backup group vm/1 is locked by another operation (backup)",
                mapped(new LockedException("backup group vm/1", "another operation (backup)")));
        assertEquals("400 x.blob: unknown blob magic 0011223344556677 (at byte 0)",
                mapped(new UnsupportedFormatException("x.blob", 0x0011223344556677L, "unknown blob magic 0011223344556677")));
        Digest d = Digest.sha256(new byte[] {1});
        assertEquals("400 missing chunk " + d.hex(), mapped(new MissingChunkException(d, null)));
    }

    @Test
    void wrappedErrorsAreMappedByTheirCause() {
        assertEquals("400 namespace not found",
                mapped(new UncheckedIOException(new NotFoundException(null, "namespace not found"))));
        assertEquals("400 namespace not found",
                mapped(new CompletionException(new NotFoundException(null, "namespace not found"))));
        assertEquals("403 permission check failed", mapped(new CompletionException(new ApiException(403, "permission check failed"))));
    }

    @Test
    void otherIoAndArgumentErrorsAre400() {
        assertEquals("400 bad thing", mapped(new IOException("bad thing\nsecond line")));
        assertEquals("400 IOException", mapped(new IOException()));
        assertEquals("400 not a namespace", mapped(new IllegalArgumentException("not a namespace")));
    }

    @Test
    void bugsAre500WithoutDetail() {
        String m = mapped(new IllegalStateException("writer for /srv/secret/store is already committed"));
        assertEquals("500 " + ErrorMapper.INTERNAL_ERROR, m);
        assertFalse(m.contains("/srv"));
        assertEquals("500 " + ErrorMapper.INTERNAL_ERROR, mapped(new NullPointerException("x is null")));
        assertEquals("500 " + ErrorMapper.INTERNAL_ERROR, mapped(new AssertionError("boom")));
    }
}
