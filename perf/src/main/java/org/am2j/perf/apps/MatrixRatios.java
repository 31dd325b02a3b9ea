package org.am2j.perf.apps;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.am2j.perf.Markdown;
import org.am2j.perf.apps.PaperFigures.Column;

import static org.am2j.perf.apps.MatrixReport.ratio;

/**
 * The ratios between a matrix's configurations ({@link MatrixReport}'s section): multi-protocol over shared memory
 * only inside one node against the target of {@value #TARGET_PERCENT} % and the paper's Table 5, all network over
 * shared memory only, the clump of 2 over all network against Table 6, per run and per application, and how far the
 * samples resolve the target.
 */
final class MatrixRatios
{
    /** The target: multi-protocol at most this many percent slower than shared memory only. */
    static final double TARGET_PERCENT = 5.0;

    private MatrixRatios()
    {
    }

    /**
     * @param result the matrix.
     * @return the configurations compared for the target inside one node, multi-protocol first and shared memory
     * only second: {@link MatrixConfig#MULTI} and {@link MatrixConfig#SHM_ONLY}, else {@link MatrixConfig#SMP_MULTI}
     * and {@link MatrixConfig#SMP_SHM}; empty when the matrix has neither pair.
     */
    static List<MatrixConfig> onePair(final MatrixResult result)
    {
        if (result.configs().contains(MatrixConfig.MULTI) && result.configs().contains(MatrixConfig.SHM_ONLY))
        {
            return List.of(MatrixConfig.MULTI, MatrixConfig.SHM_ONLY);
        }
        if (result.configs().contains(MatrixConfig.SMP_MULTI) && result.configs().contains(MatrixConfig.SMP_SHM))
        {
            return List.of(MatrixConfig.SMP_MULTI, MatrixConfig.SMP_SHM);
        }
        return List.of();
    }

    /**
     * Append the section of the ratios between configurations, when the matrix has shared memory only.
     *
     * @param md     the Markdown text.
     * @param result the matrix.
     */
    static void markdown(final StringBuilder md, final MatrixResult result)
    {
        final List<MatrixConfig> pair = onePair(result);
        if (pair.isEmpty() && !result.configs().contains(MatrixConfig.SHM_ONLY))
        {
            return;
        }
        final MatrixConfig multiConfig = pair.isEmpty() ? MatrixConfig.MULTI : pair.get(0);
        final MatrixConfig shmConfig = pair.isEmpty() ? MatrixConfig.SHM_ONLY : pair.get(1);
        md.append("## Ratios between configurations (median totals)\n\n");
        md.append(String.format(Locale.ROOT, "The target: inside one node, multi-protocol within %.0f %% " +
            "of shared memory only (multi / shm-only <= %.2f; the paper: within 12 %%).%n%n", TARGET_PERCENT,
            1 + TARGET_PERCENT / 100));
        md.append("| run | multi / shm-only | paper: T5 SMP Multi-Protocol / Shared Memory | within 5 %? | " +
            "net / shm-only | paper: T5 NOW (8) Myrinet / SMP Shared Memory | clump / net | " +
            "paper: T6 Clump / NOW (32) |\n");
        md.append("|---|---:|---:|---|---:|---:|---:|---:|\n");
        int met = 0;
        int judged = 0;
        for (final String label : result.labels())
        {
            final double multi = configRatio(result, multiConfig, shmConfig, label);
            if (!Double.isNaN(multi))
            {
                judged++;
                met += withinTarget(multi) ? 1 : 0;
            }
            Markdown.row(md, label, ratio(multi), ratio(paperRatio(label, Column.SMP_MULTI, Column.SMP_SHM)),
                Double.isNaN(multi) ? "" : withinTarget(multi) ? "yes" : "**no**",
                ratio(configRatio(result, MatrixConfig.NET, MatrixConfig.SHM_ONLY, label)),
                ratio(paperRatio(label, Column.NOW8_MYRINET, Column.SMP_SHM)),
                ratio(configRatio(result, MatrixConfig.CLUMP, MatrixConfig.NET, label)),
                ratio(paperRatio(label, Column.CLUMP32, Column.NOW32)));
        }
        md.append('\n');
        if (!pair.isEmpty())
        {
            md.append(String.format(Locale.ROOT, "Per run: multi-protocol within %.0f %% of shared memory only in " +
                "%d of %d runs.%n%n", TARGET_PERCENT, met, judged));
            final Map<String, Double> perApp = perApplication(result, result.polls().get(0));
            if (!perApp.isEmpty())
            {
                md.append("Per application (the sum of its runs' median totals), multi / shm-only: ");
                final List<String> parts = new ArrayList<>();
                perApp.forEach((app, r) -> parts.add(app + " " + ratio(r) + (withinTarget(r) ? "" : " (**over**)")));
                md.append(String.join(", ", parts)).append(".\n\n");
            }
            if (result.samples() > 1)
            {
                noise(md, result);
            }
        }
    }

    private static void noise(final StringBuilder md, final MatrixResult result)
    {
        md.append(String.format(Locale.ROOT, "How far the samples resolve it: a cell's spread is the largest over " +
            "the smallest total of its %d samples (%d job(s) x %d timed run(s)). Where a spread exceeds %.2f, samples " +
            "of one configuration differ by more than the %.0f %% the target is about, and the ratio of medians " +
            "cannot confirm or refute the target; the ratio of the minima (the least disturbed samples) is a second " +
            "estimate.%s%n%n", result.samples(), result.repeat(), result.timed(), 1 + TARGET_PERCENT / 100,
            TARGET_PERCENT, result.repeat() == 1 ? " The samples of a cell all come from one job (the same JVMs, the " +
            "same JIT decisions), so its spread leaves out how much jobs differ: `--repeat` measures that." : ""));
        md.append("| run | multi / shm-only, medians | multi / shm-only, minima | spread shm-only | spread multi |\n");
        md.append("|---|---:|---:|---:|---:|\n");
        for (final String label : result.labels())
        {
            final Cell shm = result.cell(onePair(result).get(1), label);
            final Cell multi = result.cell(onePair(result).get(0), label);
            Markdown.row(md, label, ratio(Stats.ratio(multi.medianTotal(), shm.medianTotal())),
                ratio(Stats.ratio(multi.minTotal(), shm.minTotal())),
                ratio(Stats.ratio(shm.maxTotal(), shm.minTotal())),
                ratio(Stats.ratio(multi.maxTotal(), multi.minTotal())));
        }
        md.append('\n');
    }

    /**
     * @param result the matrix.
     * @param poll   one of its poll schedulers.
     * @return per application (the part of the run label before {@code /} or the label), the ratio of the sums of
     * its runs' median totals, multi-protocol over shared memory only; an application with a missing cell is left
     * out, and all are when the matrix lacks either configuration.
     */
    static Map<String, Double> perApplication(final MatrixResult result, final String poll)
    {
        final List<MatrixConfig> pair = onePair(result);
        return pair.isEmpty() ? Map.of() : perApplication(result, poll, pair.get(0), pair.get(1));
    }

    /**
     * @param result      the matrix.
     * @param poll        a poll scheduler of the matrix.
     * @param numerator   a configuration of the matrix.
     * @param denominator another.
     * @return per application (in the order of the labels), the sum of its runs' median totals in the numerator
     * over the same in the denominator; an application with a run missing in either is left out.
     */
    static Map<String, Double> perApplication(
        final MatrixResult result, final String poll, final MatrixConfig numerator, final MatrixConfig denominator)
    {
        final Map<String, double[]> sums = new LinkedHashMap<>();
        for (final String label : result.labels())
        {
            final double[] sum = sums.computeIfAbsent(application(label), a -> new double[2]);
            sum[0] += result.cell(poll, numerator, label).medianTotal();
            sum[1] += result.cell(poll, denominator, label).medianTotal();
        }
        final Map<String, Double> ratios = new LinkedHashMap<>();
        sums.forEach((app, sum) ->
        {
            if (!Double.isNaN(sum[0] + sum[1]))
            {
                ratios.put(app, Stats.ratio(sum[0], sum[1]));
            }
        });
        return ratios;
    }

    /**
     * @return the paper's total of the label's run in one column over that in another, NaN when either is missing.
     */
    static double paperRatio(final String label, final Column numerator, final Column denominator)
    {
        return Stats.ratio(PaperFigures.seconds(label, numerator), PaperFigures.seconds(label, denominator));
    }

    static String application(final String label)
    {
        final String run = PaperFigures.paperRun(label);
        final int slash = run.indexOf('/');
        return slash < 0 ? run : run.substring(0, slash);
    }

    /**
     * @param ratio multi-protocol over shared memory only.
     * @return true when within the target.
     */
    static boolean withinTarget(final double ratio)
    {
        return ratio <= 1 + TARGET_PERCENT / 100;
    }

    /**
     * @param result      the matrix.
     * @param numerator   a configuration.
     * @param denominator another.
     * @param label       a run.
     * @return the ratio of their median totals under the main poll scheduler, NaN when either is missing.
     */
    static double configRatio(
        final MatrixResult result,
        final MatrixConfig numerator,
        final MatrixConfig denominator,
        final String label)
    {
        if (!result.configs().contains(numerator) || !result.configs().contains(denominator))
        {
            return Double.NaN;
        }
        return Stats.ratio(result.cell(numerator, label).medianTotal(), result.cell(denominator, label).medianTotal());
    }
}
