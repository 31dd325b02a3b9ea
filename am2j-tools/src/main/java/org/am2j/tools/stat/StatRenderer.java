package org.am2j.tools.stat;

import org.am2j.core.stats.CounterSnapshot;
import org.am2j.core.stats.CountersFileOwner;
import org.am2j.core.stats.CountersFileReader;
import org.am2j.core.stats.EndpointCounterDescriptor;
import org.am2j.spi.ProcessIdentity;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Formats what {@link StatTool} prints: the counters of one process grouped by endpoint and, inside each, by transport
 * (in a fixed order, whatever order they were allocated in), in aligned columns; and the list of processes that have
 * counters files.
 */
public final class StatRenderer
{
    private static final String INDENT = "  ";
    private static final String GAP = "  ";
    private static final String NONE = "-";
    /** Which columns of the listing are left-aligned (text), the others right-aligned (numbers). */
    private static final boolean[] LISTING_LEFT_ALIGNED = { false, false, true, false, true, false, true };

    /** The transports in the order their counters are printed, cheapest first; any other after them, by name. */
    private static final List<String> TRANSPORT_ORDER = List.of("inproc", "shm", "net");

    /**
     * An endpoint's rows: its transports' counters grouped by transport in {@link #TRANSPORT_ORDER}, each group in
     * the order of the counters' index, then its returned messages by status: the same order whatever order the
     * counters were allocated in (transports connect lazily).
     */
    private static final Comparator<CounterSnapshot> ENDPOINT_ROWS = Comparator
        .comparingInt(StatRenderer::typeOrder)
        .thenComparing((CounterSnapshot counter) -> transportKey(counter.transport()))
        .thenComparingInt(CounterSnapshot::counterIndex)
        .thenComparingInt(CounterSnapshot::counterId);

    /**
     * The process's rows: the transports' process-wide counters (labelled {@code "<transport> <name>"}) grouped by
     * transport in {@link #TRANSPORT_ORDER}, each group in allocation order, then anything else in allocation order.
     */
    private static final Comparator<CounterSnapshot> PROCESS_ROWS = Comparator
        .comparing((CounterSnapshot counter) -> EndpointCounterDescriptor.PROCESS_TRANSPORT_TYPE_ID == counter.typeId() ?
            "0 " + transportKey(firstWord(counter.label())) : "1")
        .thenComparingInt(CounterSnapshot::counterId);

    /**
     * A process found in a counters directory.
     *
     * @param file        its counters file.
     * @param owner       the process.
     * @param counters    how many counters it has allocated.
     * @param maxCounters how many its file holds.
     * @param endpoints   the identity counters of its endpoints (their rank and job), by endpoint id.
     */
    public record ProcessEntry(
        Path file, CountersFileOwner owner, int counters, int maxCounters, List<CounterSnapshot> endpoints)
    {
        /**
         * @param file     a counters file.
         * @param owner    its process.
         * @param counters every counter it holds, as {@link CountersFileReader#snapshot()} returns them.
         * @param maxCounters how many it holds.
         * @return the entry.
         */
        public static ProcessEntry of(
            final Path file, final CountersFileOwner owner, final List<CounterSnapshot> counters, final int maxCounters)
        {
            return new ProcessEntry(file, owner, counters.size(), maxCounters, counters.stream()
                .filter((counter) -> EndpointCounterDescriptor.ENDPOINT_TYPE_ID == counter.typeId() &&
                    counter.isEndpointCounter())
                .sorted(Comparator.comparingInt(CounterSnapshot::endpointId))
                .toList());
        }
    }

    private StatRenderer()
    {
    }

    /**
     * Print the counters of one process: a header naming it, then for each endpoint its counters (per transport,
     * then returned messages), then any counters that are not am2j endpoint counters.
     *
     * @param path        the counters file.
     * @param owner       the process.
     * @param maxCounters how many counters the file holds.
     * @param counters    the allocated counters, as {@link CountersFileReader#snapshot()} returns them.
     * @param out         where to print.
     */
    public static void renderProcess(
        final Path path,
        final CountersFileOwner owner,
        final int maxCounters,
        final List<CounterSnapshot> counters,
        final PrintStream out)
    {
        out.println("pid " + owner.pid() + "  started " + formatStart(owner.startTimeMs()) + "  counters " +
            counters.size() + " of " + maxCounters + "  " + path);
        if (!owner.label().isEmpty())
        {
            out.println("command " + owner.label());
        }

        int labelWidth = 0;
        int valueWidth = 1;
        final Map<Integer, List<CounterSnapshot>> byEndpoint = new TreeMap<>();
        final Map<Integer, CounterSnapshot> identities = new TreeMap<>();
        final List<CounterSnapshot> others = new ArrayList<>();
        for (final CounterSnapshot counter : counters)
        {
            if (!counter.isEndpointCounter())
            {
                others.add(counter);
            }
            else
            {
                final List<CounterSnapshot> rows =
                    byEndpoint.computeIfAbsent(counter.endpointId(), (id) -> new ArrayList<>());
                if (EndpointCounterDescriptor.ENDPOINT_TYPE_ID == counter.typeId())
                {
                    identities.put(counter.endpointId(), counter);
                    continue;
                }
                rows.add(counter);
            }

            // identity counters are printed as group headings, every other counter as an aligned row
            labelWidth = Math.max(labelWidth, counter.label().length());
            valueWidth = Math.max(valueWidth, Long.toString(counter.value()).length());
        }

        for (final Map.Entry<Integer, List<CounterSnapshot>> entry : byEndpoint.entrySet())
        {
            out.println();
            final CounterSnapshot identity = identities.get(entry.getKey());
            out.println(null != identity ?
                identity.label() + " (" + identity.value() + (1 == identity.value() ? " transport)" : " transports)") +
                    membership(identity) :
                "ep " + entry.getKey());

            final List<CounterSnapshot> rows = entry.getValue();
            rows.sort(ENDPOINT_ROWS);
            printRows(rows, labelWidth, valueWidth, out);
        }

        if (!others.isEmpty())
        {
            out.println();
            out.println("other counters");
            others.sort(PROCESS_ROWS);
            printRows(others, labelWidth, valueWidth, out);
        }
    }

    /**
     * Print the processes that have counters files in a directory: a row per endpoint, with the rank and job it
     * belongs to beside the pid (a process may hold endpoints of several ranks), or one row for a process without
     * endpoints; {@code -} where there is nothing to show.
     *
     * @param directory the counters directory.
     * @param processes the live processes found there.
     * @param out       where to print.
     */
    public static void renderListing(final Path directory, final List<ProcessEntry> processes, final PrintStream out)
    {
        out.println(processes.size() + (1 == processes.size() ? " live process has" : " live processes have") +
            " counters in " + directory);
        if (processes.isEmpty())
        {
            return;
        }

        final List<String[]> rows = new ArrayList<>();
        rows.add(new String[]{ "PID", "RANK", "JOB", "EP", "STARTED", "COUNTERS", "COMMAND" });
        for (final ProcessEntry process : processes)
        {
            final String[] common = { Long.toString(process.owner().pid()), NONE, NONE, NONE,
                formatStart(process.owner().startTimeMs()), Integer.toString(process.counters()),
                process.owner().label() };
            if (process.endpoints().isEmpty())
            {
                rows.add(common);
            }
            for (final CounterSnapshot endpoint : process.endpoints())
            {
                final String[] row = common.clone();
                row[1] = EndpointCounterDescriptor.NO_RANK == endpoint.rank() ? NONE : Integer.toString(endpoint.rank());
                row[2] = endpoint.job().isEmpty() ? NONE : endpoint.job();
                row[3] = Integer.toString(endpoint.endpointId());
                rows.add(row);
            }
        }

        final int[] widths = new int[LISTING_LEFT_ALIGNED.length];
        for (final String[] row : rows)
        {
            for (int column = 0; column < widths.length; column++)
            {
                widths[column] = Math.max(widths[column], row[column].length());
            }
        }
        for (final String[] row : rows)
        {
            final StringBuilder line = new StringBuilder(INDENT);
            for (int column = 0; column < widths.length; column++)
            {
                final boolean last = column == widths.length - 1;
                line.append(column > 0 ? GAP : "").append(last ? row[column] : LISTING_LEFT_ALIGNED[column] ?
                    padRight(row[column], widths[column]) : padLeft(row[column], widths[column]));
            }
            out.println(line);
        }
    }

    /**
     * @param identity an endpoint's identity counter.
     * @return {@code "  rank R  job J"}, either part left out when not recorded.
     */
    private static String membership(final CounterSnapshot identity)
    {
        return (EndpointCounterDescriptor.NO_RANK == identity.rank() ? "" : GAP + "rank " + identity.rank()) +
            (identity.job().isEmpty() ? "" : GAP + "job " + identity.job());
    }

    /**
     * @param startTimeMs a start time in epoch milliseconds, or 0.
     * @return it as an ISO-8601 instant, or "unknown".
     */
    static String formatStart(final long startTimeMs)
    {
        return ProcessIdentity.UNKNOWN_START_TIME == startTimeMs ? "unknown" :
            Instant.ofEpochMilli(startTimeMs).toString();
    }

    private static void printRows(
        final List<CounterSnapshot> rows, final int labelWidth, final int valueWidth, final PrintStream out)
    {
        for (final CounterSnapshot row : rows)
        {
            out.println(INDENT + padRight(row.label(), labelWidth) + GAP +
                padLeft(Long.toString(row.value()), valueWidth));
        }
    }

    /**
     * @param transport a transport's name.
     * @return a key that sorts the transports of {@link #TRANSPORT_ORDER} in its order, then any other by name.
     */
    static String transportKey(final String transport)
    {
        final int known = TRANSPORT_ORDER.indexOf(transport);
        return (known >= 0 ? known : TRANSPORT_ORDER.size()) + " " + transport;
    }

    private static String firstWord(final String label)
    {
        final int space = label.indexOf(' ');
        return space < 0 ? label : label.substring(0, space);
    }

    private static int typeOrder(final CounterSnapshot counter)
    {
        return EndpointCounterDescriptor.TRANSPORT_COUNTER_TYPE_ID == counter.typeId() ? 0 : 1;
    }

    private static String padRight(final String text, final int width)
    {
        return text.length() >= width ? text : text + " ".repeat(width - text.length());
    }

    private static String padLeft(final String text, final int width)
    {
        return text.length() >= width ? text : " ".repeat(width - text.length()) + text;
    }
}
