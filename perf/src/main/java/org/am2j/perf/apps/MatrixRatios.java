package org.am2j.perf.apps;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

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
            md.append("| ").append(label).append(" | ").append(ratio(multi)).append(" | ")
                .append(ratio(Stats.ratio(PaperFigures.seconds(label, PaperFigures.Column.SMP_MULTI),
                    PaperFigures.seconds(label, PaperFigures.Column.SMP_SHM)))).append(" | ")
                .append(Double.isNaN(multi) ? "" : withinTarget(multi) ? "yes" : "**no**").append(" | ")
                .append(ratio(configRatio(result, MatrixConfig.NET, MatrixConfig.SHM_ONLY, label))).append(" | ")
                .append(ratio(Stats.ratio(PaperFigures.seconds(label, PaperFigures.Column.NOW8_MYRINET),
                    PaperFigures.seconds(label, PaperFigures.Column.SMP_SHM)))).append(" | ")
                .append(ratio(configRatio(result, MatrixConfig.CLUMP, MatrixConfig.NET, label))).append(" | ")
                .append(ratio(Stats.ratio(PaperFigures.seconds(label, PaperFigures.Column.CLUMP32),
                    PaperFigures.seconds(label, PaperFigures.Column.NOW32)))).append(" |\n");
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
            md.append("| ").append(label).append(" | ")
                .append(ratio(Stats.ratio(multi.medianTotal(), shm.medianTotal()))).append(" | ")
                .append(ratio(Stats.ratio(multi.minTotal(), shm.minTotal()))).append(" | ")
                .append(ratio(Stats.ratio(shm.maxTotal(), shm.minTotal()))).append(" | ")
                .append(ratio(Stats.ratio(multi.maxTotal(), multi.minTotal()))).append(" |\n");
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
        if (pair.isEmpty())
        {
            return Map.of();
        }
        final Map<String, double[]> sums = new LinkedHashMap<>();
        final Set<String> incomplete = new LinkedHashSet<>();
        for (final String label : result.labels())
        {
            final String app = application(label);
            final double multi = result.cell(poll, pair.get(0), label).medianTotal();
            final double shm = result.cell(poll, pair.get(1), label).medianTotal();
            if (Double.isNaN(multi) || Double.isNaN(shm))
            {
                incomplete.add(app);
            }
            final double[] sum = sums.computeIfAbsent(app, a -> new double[2]);
            sum[0] += multi;
            sum[1] += shm;
        }
        final Map<String, Double> ratios = new LinkedHashMap<>();
        sums.forEach((app, sum) ->
        {
            if (!incomplete.contains(app))
            {
                ratios.put(app, Stats.ratio(sum[0], sum[1]));
            }
        });
        return ratios;
    }

    /**
     * @param label a run label.
     * @return the application's name in it: the part before {@code /} or a parenthesis.
     */
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
