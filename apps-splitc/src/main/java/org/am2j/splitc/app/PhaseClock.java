package org.am2j.splitc.app;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.am2j.splitc.SplitC;

/**
 * Times the phases of a run on one rank and prints progress lines on rank 0 ({@code app: label: text (t s)}).
 * {@link #maxOverRanks(SplitC)} turns the per-rank times into the job's (the slowest rank's, since the applications
 * are bulk synchronous).
 */
public final class PhaseClock
{
    private final PrintStream out;
    private final String prefix;
    private final boolean printing;
    private final long start = System.nanoTime();
    private final Map<String, Long> phases = new LinkedHashMap<>();
    private long phaseStart = start;
    private long lastLine = start;

    /**
     * @param out      where progress lines go (only on rank 0).
     * @param prefix   what they begin with.
     * @param printing true on the rank that prints.
     */
    public PhaseClock(final PrintStream out, final String prefix, final boolean printing)
    {
        this.out = out;
        this.prefix = prefix;
        this.printing = printing;
    }

    /**
     * Start timing a phase now.
     */
    public void begin()
    {
        phaseStart = System.nanoTime();
    }

    /**
     * End the phase begun last, add its time to the phase's total and print a progress line.
     *
     * @param phase name of the phase.
     */
    public void end(final String phase)
    {
        final long now = System.nanoTime();
        phases.merge(phase, now - phaseStart, Long::sum);
        line(String.format(Locale.ROOT, "%s done in %.3f s", phase, (now - phaseStart) / 1e9));
        phaseStart = now;
    }

    /**
     * Add time to a phase without a progress line (phases that alternate within an iteration).
     *
     * @param phase name of the phase.
     * @param nanos time to add.
     */
    public void add(final String phase, final long nanos)
    {
        phases.merge(phase, nanos, Long::sum);
    }

    /**
     * Print a progress line of an iteration, at most about one a second (and always when {@code last}).
     *
     * @param text what to say.
     * @param last true for the last iteration.
     */
    public void iteration(final String text, final boolean last)
    {
        final long now = System.nanoTime();
        if (last || now - lastLine >= 1_000_000_000L)
        {
            line(text);
        }
    }

    /**
     * Print a progress line.
     *
     * @param text what to say.
     */
    public void line(final String text)
    {
        final long now = System.nanoTime();
        lastLine = now;
        if (printing)
        {
            out.printf(Locale.ROOT, "%s: %s (%.3f s)%n", prefix, text, (now - start) / 1e9);
            out.flush();
        }
    }

    /**
     * A collective: every rank calls it with the same phases.
     *
     * @param sc this rank's Split-C layer.
     * @return per phase, the largest time of any rank, in seconds, in the order the phases were first timed.
     */
    public Map<String, Double> maxOverRanks(final SplitC sc)
    {
        final Map<String, Double> max = new LinkedHashMap<>();
        for (final Map.Entry<String, Long> phase : phases.entrySet())
        {
            max.put(phase.getKey(), sc.allReduceMax(phase.getValue() / 1e9));
        }
        return max;
    }
}
