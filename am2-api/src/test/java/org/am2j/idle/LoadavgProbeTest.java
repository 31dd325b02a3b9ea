package org.am2j.idle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadavgProbeTest
{
    private static int parse(final String text)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        return LoadavgProbe.parseRunning(bytes, bytes.length);
    }

    @Test
    void parsesTheRunningCountOfFieldFour()
    {
        assertEquals(4, parse("1.27 2.17 3.17 4/147 1494\n"));
        assertEquals(123, parse("10.00 9.50 8.25 123/4567 99999\n"));
        assertEquals(0, parse("0.00 0.00 0.00 0/1 1"));
    }

    @Test
    void refusesWhatIsNotALoadFile()
    {
        assertEquals(RunnableProbe.UNKNOWN, parse(""));
        assertEquals(RunnableProbe.UNKNOWN, parse("1.27 2.17 3.17"));
        assertEquals(RunnableProbe.UNKNOWN, parse("1.27 2.17 3.17 x/147 1494"));
        assertEquals(RunnableProbe.UNKNOWN, parse("1.27 2.17 3.17 4"));
        assertEquals(RunnableProbe.UNKNOWN, parse("1.27 2.17 3.17 99999999999/1 1"));
    }

    @Test
    void countsCpuLists()
    {
        assertEquals(1, LoadavgProbe.countCpuList("0"));
        assertEquals(2, LoadavgProbe.countCpuList("0-1"));
        assertEquals(6, LoadavgProbe.countCpuList("0,2-5,7"));
        assertThrows(IllegalArgumentException.class, () -> LoadavgProbe.countCpuList(""));
        assertThrows(IllegalArgumentException.class, () -> LoadavgProbe.countCpuList("3-1"));
        assertThrows(IllegalArgumentException.class, () -> LoadavgProbe.countCpuList("a-b"));
    }

    @Test
    void readsTheFileAgainOnEveryCall(@TempDir final Path dir) throws IOException
    {
        final Path loadavg = dir.resolve("loadavg");
        final Path online = dir.resolve("online");
        Files.writeString(loadavg, "0.50 0.40 0.30 3/100 42\n");
        Files.writeString(online, "0-7\n");
        try (LoadavgProbe probe = LoadavgProbe.open(loadavg, online))
        {
            assertEquals(8, probe.cpus());
            assertEquals(3, probe.runnable());
            Files.writeString(loadavg, "0.50 0.40 0.30 17/100 42\n");
            assertEquals(17, probe.runnable());
            Files.writeString(loadavg, "garbage\n");
            assertEquals(RunnableProbe.UNKNOWN, probe.runnable());
            // a file that was not in the format once is not trusted again
            Files.writeString(loadavg, "0.50 0.40 0.30 5/100 42\n");
            assertEquals(RunnableProbe.UNKNOWN, probe.runnable());
        }
    }

    @Test
    void readingTheProbeAndAskingTheShareAllocateNothing(@TempDir final Path dir) throws IOException
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported(), "JVM cannot count allocated bytes");
        threads.setThreadAllocatedMemoryEnabled(true);
        final Path loadavg = dir.resolve("loadavg");
        Files.writeString(loadavg, "0.50 0.40 0.30 3/100 42\n");
        final long[] now = {0};
        try (LoadavgProbe probe = LoadavgProbe.open(loadavg, dir.resolve("online")))
        {
            // period 1 ns and a clock that moves 1 ns per ask: every ask reads the file
            final CpuShare share = new CpuShare(CpuShare.Mode.ADAPTIVE, probe, () -> now[0]++, 1);
            int oversubscribed = 0;
            for (int i = 0; i < 20_000; i++)
            {
                oversubscribed += share.oversubscribed() ? 1 : 0;
            }
            final long threadId = Thread.currentThread().getId();
            threads.getThreadAllocatedBytes(threadId);
            final long before = threads.getThreadAllocatedBytes(threadId);
            for (int i = 0; i < 20_000; i++)
            {
                oversubscribed += share.oversubscribed() ? 1 : 0;
            }
            final long allocated = threads.getThreadAllocatedBytes(threadId) - before;
            assertEquals(40_000L, share.reads());
            assertEquals(3 > probe.cpus() + CpuShare.VISITORS ? 40_000 : 0, oversubscribed);
            assertTrue(allocated < 1024, "20,000 reads allocated " + allocated + " bytes");
        }
    }

    @Test
    void readsThisMachinesCountWhereThereIsOne()
    {
        try (LoadavgProbe probe = LoadavgProbe.open())
        {
            assertTrue(probe.cpus() >= 1);
            if (Files.isReadable(LoadavgProbe.LOADAVG))
            {
                // the reading thread is running, so it counts itself
                assertTrue(probe.runnable() >= 1);
                assertTrue(probe.runnable() >= 1, "a second read of the same open file");
            }
        }
    }
}
