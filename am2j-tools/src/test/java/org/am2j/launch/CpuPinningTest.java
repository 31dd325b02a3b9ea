package org.am2j.launch;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CPU choice of {@code am2j run --pin}; {@link Am2RunTest} runs pinned ranks.
 */
@Timeout(30)
class CpuPinningTest
{
    @Test
    void parsesTheKernelsCpuLists()
    {
        assertArrayEquals(new int[]{ 0 }, CpuPinning.parseCpuList("0"));
        assertArrayEquals(new int[]{ 0, 1 }, CpuPinning.parseCpuList("0-1"));
        assertArrayEquals(new int[]{ 0, 1, 2, 3, 8, 10, 11 }, CpuPinning.parseCpuList("0-3,8,10-11\n"));
        assertArrayEquals(new int[]{ 2, 5 }, CpuPinning.parseCpuList("5,2,5"));
        assertThrows(IllegalArgumentException.class, () -> CpuPinning.parseCpuList("a-b"));
        assertThrows(IllegalArgumentException.class, () -> CpuPinning.parseCpuList("3-1"));
        assertThrows(IllegalArgumentException.class, () -> CpuPinning.parseCpuList(""));
    }

    @Test
    void pinsTheRanksToTheFirstTwoAllowedCpus()
    {
        final CpuPinning pinning = CpuPinning.of("/usr/bin/taskset", "2-3,6");
        assertTrue(pinning.applied());
        assertEquals(2, pinning.cpu(0));
        assertEquals(3, pinning.cpu(1));
        assertEquals(List.of("/usr/bin/taskset", "-c", "2"), pinning.prefix(0));
        assertEquals(List.of("/usr/bin/taskset", "-c", "3"), pinning.prefix(1));
        assertNull(pinning.unpinnedReason());
    }

    @Test
    void ranksBeyondTheAllowedCpusWrapAround()
    {
        final CpuPinning pinning = CpuPinning.of("/usr/bin/taskset", "2-3,6");
        assertEquals(6, pinning.cpu(2));
        assertEquals(2, pinning.cpu(3));
        assertEquals(3, pinning.cpu(7));
        assertEquals(List.of("/usr/bin/taskset", "-c", "6"), pinning.prefix(5));
        assertThrows(IllegalArgumentException.class, () -> pinning.cpu(-1));
    }

    @Test
    void doesNotPinWithoutTasksetOrWithOneCpu()
    {
        final CpuPinning noTaskset = CpuPinning.of(null, "0-7");
        assertFalse(noTaskset.applied());
        assertEquals(List.of(), noTaskset.prefix(0));
        assertEquals(-1, noTaskset.cpu(1));
        assertEquals("taskset is not on the PATH", noTaskset.unpinnedReason());

        final CpuPinning oneCpu = CpuPinning.of("/usr/bin/taskset", "4");
        assertFalse(oneCpu.applied());
        assertEquals(List.of(), oneCpu.prefix(1));
        assertEquals("this process may use only CPU 4", oneCpu.unpinnedReason());
    }

    @Test
    void detectsThisMachine()
    {
        final CpuPinning pinning = CpuPinning.detect();
        assertTrue(CpuPinning.parseCpuList(pinning.allowed()).length >= 1);
    }
}
