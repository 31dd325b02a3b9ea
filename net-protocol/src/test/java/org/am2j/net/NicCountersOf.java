package org.am2j.net;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.am2j.core.stats.CounterSnapshot;
import org.am2j.core.stats.CountersFile;
import org.am2j.core.stats.CountersFileReader;

/**
 * A process's network NIC counters ({@code net nic <event>}) as {@code bin/am2j stat} reads them: from the
 * process's counters file in the default counters directory, for the fault tests' controllers and rank programs.
 */
final class NicCountersOf
{
    private NicCountersOf()
    {
    }

    /**
     * @return the value of {@code event}'s counter of process {@code pid}, summed over its NICs, or -1 when the
     *         process has no counters file (yet, or any more).
     */
    static long read(final long pid, final NicEvent event)
    {
        final Path file = CountersFile.fileFor(CountersFile.defaultDirectory(), pid);
        if (!Files.exists(file))
        {
            return -1;
        }
        final String label = "nic " + event.name().toLowerCase(Locale.ROOT);
        try (CountersFileReader reader = CountersFileReader.open(file))
        {
            long sum = 0;
            for (final CounterSnapshot counter : reader.snapshot())
            {
                if (counter.label().endsWith(label))
                {
                    sum += counter.value();
                }
            }
            return sum;
        }
    }

    /**
     * @return the give-up protocol's counters of process {@code pid}, as {@code event=value ...}.
     */
    static String giveUps(final long pid)
    {
        final StringBuilder text = new StringBuilder();
        for (final NicEvent event : new NicEvent[]{NicEvent.GIVE_UPS_SENT, NicEvent.GIVEN_UP_RETURNED,
            NicEvent.GIVEN_UP_DELIVERED, NicEvent.GIVEN_UP_HERE, NicEvent.OUTSTANDING, NicEvent.UNREACHABLE,
            NicEvent.OUTCOME_UNKNOWN, NicEvent.PEERS_DIED})
        {
            text.append(text.length() > 0 ? " " : "").append(event.name().toLowerCase(Locale.ROOT)).append('=')
                .append(read(pid, event));
        }
        return text.toString();
    }
}
