package org.am2j.perf;

import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * The measurements the rank programs of {@link Scale} print, one a line of standard output (which the launcher
 * prefixes with {@code [rank] }): {@code scale.KIND} and the JSON object of a record, {@link Hello}, {@link Poll} or
 * {@link Flood}, read back whole.
 */
final class ScaleLine
{
    /** What every measurement line starts with, after the launcher's prefix. */
    static final String PREFIX = "scale.";

    private ScaleLine()
    {
    }

    /**
     * One rank of an {@code am2j hello} job ({@link ScaleHelloMain}); -1 for what the OS did not say. The memory
     * figures are those of the rank's JVM, which holds other ranks too with {@code --ranks-per-jvm} above 1.
     *
     * @param pid       of the rank's JVM, which tells the lines of ranks of one JVM apart from the others.
     * @param startupMs from the JVM's start to the end of hello, ms.
     * @param rssKb     resident memory of the JVM then ({@code VmRSS}), KiB.
     * @param hwmKb     peak resident memory of the JVM ({@code VmHWM}), KiB.
     * @param pssKb     proportional set size of the JVM then ({@code Pss} of {@code /proc/self/smaps_rollup}): its
     *                  resident memory with each page shared with other processes counted in parts, KiB.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Hello(long pid, long startupMs, long rssKb, long hwmKb, long pssKb)
    {
    }

    /**
     * Rank 0 of a poll job ({@link ScalePollMain}) with this many mapped peers; a point of {@code poll[].points} in
     * {@code bin/am2j scale --json}.
     *
     * @param peers        mapped peers.
     * @param nsPerPoll    the median time of an empty poll, ns.
     * @param nsPerPollMin the fastest, ns.
     * @param heapB        heap used after a collection, bytes.
     * @param directB      direct buffers, bytes.
     * @param mappedB      mapped files, bytes.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Poll(long peers, double nsPerPoll, double nsPerPollMin, long heapB, long directB, long mappedB)
    {
    }

    /**
     * One rank of a flood job ({@link ScaleFloodMain}).
     *
     * @param rank       the rank.
     * @param ranks      of the job.
     * @param roundTrips the rank's timed round trips.
     * @param seconds    they took.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Flood(int rank, int ranks, long roundTrips, double seconds)
    {
    }

    /**
     * @param kind        what was measured, e.g. {@code hello}.
     * @param measurement its record.
     * @return the line a rank prints.
     */
    static String format(final String kind, final Object measurement)
    {
        try
        {
            return PREFIX + kind + " " + Results.STRICT.writeValueAsString(measurement);
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalArgumentException("cannot write " + measurement + ": " + ex.getOriginalMessage(), ex);
        }
    }

    /**
     * @param output the job's standard output.
     * @param kind   the lines to keep.
     * @param type   the record of that kind.
     * @param <T>    the type.
     * @return the measurements of that kind, in order; other lines are passed over.
     * @throws IllegalArgumentException naming a line of that kind that does not hold its record.
     */
    static <T> List<T> parseAll(final String output, final String kind, final Class<T> type)
    {
        return output.lines().map(line -> parse(line, kind, type)).filter(Objects::nonNull).toList();
    }

    /**
     * @param text a line of a job's output, with or without the launcher's {@code [rank] }.
     * @param kind the kind to read.
     * @param type the record of that kind.
     * @param <T>  the type.
     * @return the measurement, or {@code null} when the line is not one of that kind.
     * @throws IllegalArgumentException when it is, but does not hold the record.
     */
    static <T> T parse(final String text, final String kind, final Class<T> type)
    {
        final String rest = text.strip().replaceFirst("^\\[[^\\]]*\\] ", "").strip();
        if (!rest.startsWith(PREFIX + kind + " ") && !rest.equals(PREFIX + kind))
        {
            return null;
        }
        try
        {
            return Results.STRICT.readValue(rest.substring(PREFIX.length() + kind.length()), type);
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalArgumentException("no " + PREFIX + kind + " measurement in '" + text + "': " +
                ex.getOriginalMessage(), ex);
        }
    }
}
