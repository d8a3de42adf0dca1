package org.jpbs.core.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** UPID text form, with the UPIDs a real PBS 3.1.2 produced (vectors {@code real-pbs/api/tasks.body}). */
class UpidTest {
    @Test
    void parsesAndPrintsTheRealPbsUpids() {
        String s = "UPID:vm:0000147C:0007625F:00000006:6B0DDDDD:backup:golden\\x3avm-200:bench@pbs!t1:";
        Upid u = Upid.parse(s);
        assertEquals("vm", u.node());
        assertEquals(5244, u.pid());
        assertEquals(483935, u.pstart());
        assertEquals(6, u.taskId());
        assertEquals(1796070877L, u.startTime());
        assertEquals("backup", u.workerType());
        assertEquals("golden:vm/200", u.workerId());
        assertEquals("bench@pbs!t1", u.authId());
        assertEquals("bench@pbs", u.user());
        assertEquals("t1", u.tokenName());
        assertEquals(s, u.toString());

        Upid gc = Upid.parse("UPID:vm:0000147C:0007625F:00000008:6B0DDDDF:garbage_collection:golden:root@pam:");
        assertEquals("golden", gc.workerId());
        assertNull(gc.tokenName());
        assertEquals("root@pam", gc.user());
    }

    @Test
    void specExampleAndEscaping() {
        Upid u = new Upid("pbs", 1000, 0xA1B2C3, 7, 0x6660A1B2L, "backup", "store1:host/elsa", "root@pam");
        assertEquals("UPID:pbs:000003E8:00A1B2C3:00000007:6660A1B2:backup:store1\\x3ahost-elsa:root@pam:", u.toString());
        assertEquals("\\x2efoo.bar\\x2d1\\x20\\xc3\\xa4", Upid.escape(".foo.bar-1 ä"));
        assertEquals(".foo.bar-1 ä", Upid.unescape("\\x2efoo.bar\\x2d1\\x20\\xc3\\xa4"));
        assertEquals("", Upid.escape(""));
        // a long pstart (more than 8 digits) and an empty worker id round-trip
        Upid big = new Upid("n1", 1, 0x1_0000_0000L, 0, 0, "t", "", "a@pam");
        assertEquals(big, Upid.parse(big.toString()));
    }

    @Test
    void rejectsMalformedText() {
        for (String bad : new String[] {"", "UPID:vm:1:2:3:4:x:y:z:", "UPID:vm:0000147C:0007625F:00000006:6B0DDDDD:backup:id:user",
            "UPID:-vm:0000147C:0007625F:00000006:6B0DDDDD:backup:id:user:", "UPID:vm:0000147C:0007625F:00000006:6B0DDDDD:backup:a\\x4:u:"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Upid.parse(bad), bad);
            assertEquals(true, e.getMessage().startsWith("unable to parse UPID"), e.getMessage());
        }
    }
}
