package org.am2j.perf.apps;

import org.am2j.perf.Medians;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One run of one application in one configuration with one poll scheduler, over the repeats of the matrix: the
 * runs' numbers, and what went wrong in the repeats that did not give any (a failed job, a run not verified). The
 * cell is hosted unless the configuration cannot run the application at all ({@link #notHosted}).
 */
final class Cell
{
    private final List<AppRun> runs = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private String notHosted;

    /**
     * @param run a verified run's numbers.
     */
    void add(final AppRun run)
    {
        runs.add(run);
    }

    /**
     * @param why a repeat gave no verified numbers.
     */
    void fail(final String why)
    {
        failures.add(why);
    }

    /**
     * @param why the configuration cannot run the application (e.g. a layout needing equal nodes).
     */
    void notHosted(final String why)
    {
        notHosted = why;
    }

    /**
     * @return why the configuration cannot run it, or {@code null} when it can.
     */
    String notHostedReason()
    {
        return notHosted;
    }

    /**
     * @return the verified runs' numbers: every timed run of every repeat's job that gave them.
     */
    List<AppRun> runs()
    {
        return Collections.unmodifiableList(runs);
    }

    /**
     * @return what went wrong, one line per repeat that failed.
     */
    List<String> failures()
    {
        return Collections.unmodifiableList(failures);
    }

    /**
     * @return true when every repeat gave verified numbers (and there was at least one).
     */
    boolean ok()
    {
        return null == notHosted && failures.isEmpty() && !runs.isEmpty();
    }

    /**
     * @return the median total time of the verified runs, NaN when there are none.
     */
    double medianTotal()
    {
        return Medians.of(totals());
    }

    /**
     * @return the smallest total time, NaN when there are none.
     */
    double minTotal()
    {
        return totals().stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    /**
     * @return the largest total time, NaN when there are none.
     */
    double maxTotal()
    {
        return totals().stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    /**
     * @return the median time of each phase (each phase's own median), in the runs' phase order.
     */
    Map<String, Double> medianPhases()
    {
        final Map<String, List<Double>> times = new LinkedHashMap<>();
        for (final AppRun run : runs)
        {
            run.phases().forEach((phase, s) -> times.computeIfAbsent(phase, p -> new ArrayList<>()).add(s));
        }
        final Map<String, Double> medians = new LinkedHashMap<>();
        times.forEach((phase, list) -> medians.put(phase, Medians.of(list)));
        return medians;
    }

    /**
     * @return the run whose total is the median ({@link Stats#medianIndex}), whose counts the tables show; or
     * {@code null} when there is none.
     */
    AppRun medianRun()
    {
        final int i = Stats.medianIndex(totals());
        return i < 0 ? null : runs.get(i);
    }

    private List<Double> totals()
    {
        return runs.stream().map(AppRun::totalSeconds).toList();
    }
}
