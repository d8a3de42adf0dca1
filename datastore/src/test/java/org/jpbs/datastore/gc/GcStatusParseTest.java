package org.jpbs.datastore.gc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.jpbs.core.errors.CorruptDataException;
import org.junit.jupiter.api.Test;

/** Regression (s3-break47): a garbled {@code .gc-status} gave a Jackson message with its source location. */
class GcStatusParseTest {
    @Test
    void garbledStatusIsOneShortLineNamingTheFile() {
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> GcStatus.parse("garbage".getBytes(StandardCharsets.US_ASCII), "/ds/.gc-status"));
        assertTrue(e.getMessage().startsWith("/ds/.gc-status: invalid JSON: Unrecognized token 'garbage'"), e.getMessage());
        assertFalse(e.getMessage().contains("Source"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
}
