package org.am2j.tools.stat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.am2j.core.stats.CounterSnapshot;
import org.am2j.core.stats.CountersFileOwner;
import org.junit.jupiter.api.Test;

import static org.am2j.core.stats.EndpointCounterDescriptor.ENDPOINT_TYPE_ID;
import static org.am2j.core.stats.EndpointCounterDescriptor.PROCESS_TRANSPORT_TYPE_ID;
import static org.am2j.core.stats.EndpointCounterDescriptor.RETURNED_TYPE_ID;
import static org.am2j.core.stats.EndpointCounterDescriptor.TRANSPORT_COUNTER_TYPE_ID;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code bin/am2j stat} prints an endpoint's counters grouped by transport (inproc, shm, net, then others by name),
 * each group in counter order, then returned messages, and the process's transport counters grouped the same way:
 * the same text whatever order the counters were allocated in.
 */
class StatRendererTest
{
    private static final CountersFileOwner OWNER = new CountersFileOwner(42, 0, "test");

    @Test
    void countersPrintInOneOrderGroupedByTransportWhateverTheirAllocationOrder()
    {
        final List<String> expected = List.of(
            "ep 1 endpoint e (4 transports)",
            "  ep 1 [inproc] requests sent",
            "  ep 1 [inproc] replies sent",
            "  ep 1 [shm] requests sent",
            "  ep 1 [shm] replies sent",
            "  ep 1 [net] requests sent",
            "  ep 1 [net] replies sent",
            "  ep 1 [zeta] requests sent",
            "  ep 1 returned EBADARGS",
            "  ep 1 returned EBADTAG",
            "other counters",
            "  shm doorbell rings",
            "  net nic datagrams sent",
            "  net nic drops",
            "  someone else's counter");

        final List<CounterSnapshot> allocated = new ArrayList<>(List.of(
            endpoint(ENDPOINT_TYPE_ID, -1, "", "ep 1 endpoint e", 4),
            endpoint(TRANSPORT_COUNTER_TYPE_ID, 0, "inproc", "ep 1 [inproc] requests sent", 1),
            endpoint(TRANSPORT_COUNTER_TYPE_ID, 1, "inproc", "ep 1 [inproc] replies sent", 1),
            endpoint(TRANSPORT_COUNTER_TYPE_ID, 0, "shm", "ep 1 [shm] requests sent", 1),
            endpoint(TRANSPORT_COUNTER_TYPE_ID, 1, "shm", "ep 1 [shm] replies sent", 1),
            endpoint(TRANSPORT_COUNTER_TYPE_ID, 0, "net", "ep 1 [net] requests sent", 1),
            endpoint(TRANSPORT_COUNTER_TYPE_ID, 1, "net", "ep 1 [net] replies sent", 1),
            endpoint(TRANSPORT_COUNTER_TYPE_ID, 0, "zeta", "ep 1 [zeta] requests sent", 1),
            endpoint(RETURNED_TYPE_ID, 1, "", "ep 1 returned EBADARGS", 1),
            endpoint(RETURNED_TYPE_ID, 3, "", "ep 1 returned EBADTAG", 1)));
        final List<CounterSnapshot> process = List.of(
            other(PROCESS_TRANSPORT_TYPE_ID, "shm doorbell rings"),
            other(PROCESS_TRANSPORT_TYPE_ID, "net nic datagrams sent"),
            other(PROCESS_TRANSPORT_TYPE_ID, "net nic drops"),
            other(1, "someone else's counter"));

        final Random random = new Random(7);
        String first = null;
        for (int trial = 0; trial < 20; trial++)
        {
            // counter ids follow allocation: endpoint counters in a random order, the process's with net's first
            final List<CounterSnapshot> shuffled = new ArrayList<>(allocated);
            Collections.shuffle(shuffled, random);
            final List<CounterSnapshot> counters = new ArrayList<>();
            for (final CounterSnapshot counter : shuffled)
            {
                counters.add(withId(counter, counters.size()));
            }
            for (final int k : new int[]{ 1, 3, 0, 2 })
            {
                counters.add(withId(process.get(k), counters.size()));
            }

            final String text = render(counters);
            final List<String> lines = new ArrayList<>();
            for (final String line : text.split("\n"))
            {
                if (!line.isBlank() && !line.startsWith("pid ") && !line.startsWith("command "))
                {
                    lines.add(line.replaceAll("\\s+\\d+$", ""));
                }
            }
            assertEquals(expected, lines, text);
            if (null == first)
            {
                first = text;
            }
            assertEquals(first, text, "the same counters print the same text");
        }
    }

    @Test
    void theListingHasARowPerEndpointWithItsRankAndJobBesideThePid()
    {
        final List<CounterSnapshot> twoRanks = List.of(
            identity(3, 1, "j9-a"),
            endpoint(TRANSPORT_COUNTER_TYPE_ID, 0, "inproc", "ep 1 [inproc] requests sent", 1),
            identity(0, 12, "j9-a"));
        final List<StatRenderer.ProcessEntry> processes = List.of(
            StatRenderer.ProcessEntry.of(Path.of("/d/42.counters"), OWNER, twoRanks, 64),
            StatRenderer.ProcessEntry.of(Path.of("/d/1234.counters"), new CountersFileOwner(1234, 0, "nic"),
                List.of(other(PROCESS_TRANSPORT_TYPE_ID, "net nic drops")), 64));

        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StatRenderer.renderListing(Path.of("/d"), processes, new PrintStream(bytes, true, StandardCharsets.UTF_8));

        assertEquals(List.of(
            "2 live processes have counters in /d",
            "   PID  RANK  JOB   EP  STARTED  COUNTERS  COMMAND",
            "    42    12  j9-a   0  unknown         3  test",
            "    42     1  j9-a   3  unknown         3  test",
            "  1234     -  -      -  unknown         1  nic"), bytes.toString(StandardCharsets.UTF_8).lines().toList());
    }

    private static CounterSnapshot identity(final int endpointId, final int rank, final String job)
    {
        return new CounterSnapshot(-1, ENDPOINT_TYPE_ID, endpointId, 0, "", "ep " + endpointId + " endpoint", 1, rank,
            job);
    }

    private static String render(final List<CounterSnapshot> counters)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StatRenderer.renderProcess(Path.of("/dev/shm/x.counters"), OWNER, 64, counters,
            new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static CounterSnapshot endpoint(final int type, final int index, final String transport,
        final String label, final long value)
    {
        return new CounterSnapshot(-1, type, 1, index, transport, label, value);
    }

    private static CounterSnapshot other(final int type, final String label)
    {
        return new CounterSnapshot(-1, type, -1, -1, "", label, 5);
    }

    private static CounterSnapshot withId(final CounterSnapshot c, final int id)
    {
        return new CounterSnapshot(id, c.typeId(), c.endpointId(), c.counterIndex(), c.transport(), c.label(),
            c.value());
    }
}
