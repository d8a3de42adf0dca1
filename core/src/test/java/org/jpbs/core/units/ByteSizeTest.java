package org.jpbs.core.units;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** PBS's byte sizes (proxmox HumanByte): SI and IEC units, optional B, optional blanks. */
class ByteSizeTest {
    @Test
    void unitsAsPbsReadsThem() {
        assertEquals(14, ByteSize.parse("14"));
        assertEquals(1300, ByteSize.parse("1300b"));
        assertEquals(1300, ByteSize.parse("1300 B"));
        assertEquals(1500, ByteSize.parse("1.5KB"));
        assertEquals(1500, ByteSize.parse("1.5kb"));
        assertEquals(1500, ByteSize.parse("1.5k"));
        assertEquals(2048, ByteSize.parse("2KiB"));
        assertEquals(2048, ByteSize.parse("2Ki"));
        assertEquals(2048, ByteSize.parse("2kib"));
        assertEquals(10L << 20, ByteSize.parse("10MiB"));
        assertEquals(10L << 20, ByteSize.parse(" 10 MiB "));
        assertEquals(4L << 30, ByteSize.parse("4gib"));
        assertEquals(2_000_000_000L, ByteSize.parse("2.0GB"));
        assertEquals(1_400_000_000_000L, ByteSize.parse("1.4TB"));
        assertEquals(1L << 50, ByteSize.parse("1PiB"));
    }

    @Test
    void badSizesNameTheValue() {
        for (String bad : new String[] {"", "-10", "ten", "10 XB", "10KIB", "1..5M", "10MiBs"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ByteSize.parse(bad), bad);
            assertEquals("'" + bad + "' is not a byte size (e.g. 10MiB)", e.getMessage());
        }
    }
}
