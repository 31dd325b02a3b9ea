package org.am2j.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.agrona.concurrent.status.AtomicCounter;
import org.am2j.core.stats.CounterSnapshot;
import org.am2j.core.stats.CountersFile;
import org.am2j.core.stats.CountersFileReader;
import org.am2j.core.stats.EndpointCounterDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A transport's process-wide counter ({@code TransportContext.counter}, the NIC's) is allocated by the runtime in the
 * process's counters file, where another process (as {@code bin/am2j stat}) reads it as a counter of the process, not
 * of an endpoint.
 */
@Timeout(30)
class ProcessCountersTest
{
    @Test
    void aTransportsProcessCounterIsInTheCountersFileAsAProcessCounter() throws Exception
    {
        final AtomicCounter counter = AmRuntime.instance().counter("test", "things counted");
        counter.increment();
        counter.increment();

        final Path file = CountersFile.fileFor(CountersFile.defaultDirectory(), ProcessHandle.current().pid());
        assertTrue(Files.exists(file), "the runtime's counters file " + file);
        try (CountersFileReader reader = CountersFileReader.open(file))
        {
            final CounterSnapshot snapshot = reader.snapshot().stream()
                .filter((c) -> "test things counted".equals(c.label())).findFirst().orElseThrow();
            assertEquals(2, snapshot.value());
            assertEquals(EndpointCounterDescriptor.PROCESS_TRANSPORT_TYPE_ID, snapshot.typeId());
            assertFalse(snapshot.isEndpointCounter());
        }
    }

    @Test
    void theRankComesFromItsPropertyAndABadOneIsNone()
    {
        final String before = System.getProperty(ProcessCounters.RANK_PROPERTY);
        final ProcessCounters counters = ProcessCounters.open();
        try
        {
            System.clearProperty(ProcessCounters.RANK_PROPERTY);
            assertEquals(EndpointCounterDescriptor.NO_RANK, counters.rank());
            System.setProperty(ProcessCounters.RANK_PROPERTY, " 3 ");
            assertEquals(3, counters.rank());
            System.setProperty(ProcessCounters.RANK_PROPERTY, "three");
            assertEquals(EndpointCounterDescriptor.NO_RANK, counters.rank());
            System.setProperty(ProcessCounters.RANK_PROPERTY, "-2");
            assertEquals(EndpointCounterDescriptor.NO_RANK, counters.rank());
        }
        finally
        {
            counters.close();
            if (null == before)
            {
                System.clearProperty(ProcessCounters.RANK_PROPERTY);
            }
            else
            {
                System.setProperty(ProcessCounters.RANK_PROPERTY, before);
            }
        }
    }
}
