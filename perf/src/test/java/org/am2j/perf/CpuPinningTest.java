package org.am2j.perf;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        assertEquals(3, pinning.allowedCount());
        assertEquals(2, pinning.cpu(0));
        assertEquals(3, pinning.cpu(1));
        assertEquals(List.of("/usr/bin/taskset", "-c", "2"), pinning.prefix(0));
        assertEquals(List.of("/usr/bin/taskset", "-c", "3"), pinning.prefix(1));
    }

    @Test
    void doesNotPinWithoutTasksetOrWithOneCpu()
    {
        final CpuPinning noTaskset = CpuPinning.of(null, "0-7");
        assertFalse(noTaskset.applied());
        assertEquals(List.of(), noTaskset.prefix(0));
        assertEquals(-1, noTaskset.cpu(1));

        final CpuPinning oneCpu = CpuPinning.of("/usr/bin/taskset", "4");
        assertFalse(oneCpu.applied());
        assertEquals(List.of(), oneCpu.prefix(1));
    }

    @Test
    void detectsThisMachine()
    {
        final CpuPinning pinning = CpuPinning.detect();
        assertTrue(pinning.allowedCount() >= 1);
        assertEquals(pinning.allowedCount(), CpuPinning.parseCpuList(pinning.allowed()).length);
    }
}
